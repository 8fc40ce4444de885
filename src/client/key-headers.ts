/** The headers a key may travel in. Free of undici, so config commands can offer them cheaply. */
export const keyHeaders = ['apiKey', 'X-API-Key', 'Authorization'] as const;
export type KeyHeader = (typeof keyHeaders)[number];
