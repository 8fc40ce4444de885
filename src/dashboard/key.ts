// The API key lives in sessionStorage only (gone with the tab), and never in a URL: a browser
// keeps every URL it loads in its history, whatever the page does to the address bar later.
// `serve --demo` prints a URL with a one-time code instead (#code=…), which the page trades
// once for the key (service.ts).

const STORAGE_NAME = 'reportctl.apiKey';

export function storedKey(): string | null {
  const key = sessionStorage.getItem(STORAGE_NAME);
  return key !== null && key.trim() !== '' ? key : null;
}

export function storeKey(key: string): void {
  sessionStorage.setItem(STORAGE_NAME, key.trim());
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_NAME);
}

/**
 * The code of a `#code=…` fragment, taken out of the address bar. A `#key=…` fragment is
 * taken out too but never read: a key from a URL could be anyone's.
 */
export function takeCodeFromFragment(): string | null {
  const match = /^#(code|key)=([^&]*)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}#/templates`);
  return match[1] === 'code' && match[2] !== '' ? match[2]! : null;
}
