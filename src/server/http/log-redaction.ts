/** Query parameter names that carry credentials, compared without case, digits or punctuation. */
const SECRET_PARAMS = new Set(['apikey', 'xapikey', 'key', 'token', 'accesstoken', 'auth', 'authorization', 'bearer', 'password', 'secret']);

/** One character of a key as a URL may carry it: itself, or percent-encoded (either case of hex). */
const escaped = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').replace(/[a-f]/g, (hex) => `[${hex}${hex.toUpperCase()}]`)}`;
const plainOrEscaped = (char: string) => `(?:${char}|${escaped(char)})`;
/**
 * The service's own keys, masked wherever they appear (a key pasted into a path, say), also
 * when some of their characters are percent-encoded (`rctl%5F…`): the server decodes them,
 * so they are keys all the same. Any escape counts as a key character: masking too much is
 * harmless in a log.
 */
const KEY_SHAPE = new RegExp(`${[...'rctl_'].map(plainOrEscaped).join('')}(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}){8,}`, 'g');

export const ECHO_MAX = 200;
export const LOGGED_MAX = 2048;

/**
 * A URL as it may be echoed or logged: secrets masked first (so a cut can never leave part
 * of a key unmasked), then cut to `max` characters; URLs may be up to 16 KiB long.
 */
export function shown(url: string, max: number): string {
  const masked = maskSecrets(url);
  return masked.length <= max ? masked : `${masked.slice(0, max)}…(${masked.length - max} more)`;
}

/**
 * A URL fit for the access log: the values of credential-like query parameters (keys in
 * query strings are refused, but the request still gets logged) and anything shaped like a
 * key become `***`.
 */
export function maskSecrets(url: string): string {
  const question = url.indexOf('?');
  let masked = url;
  if (question >= 0) {
    const query = url
      .slice(question + 1)
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        return equals >= 0 && SECRET_PARAMS.has(paramName(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=***` : pair;
      })
      .join('&');
    masked = `${url.slice(0, question)}?${query}`;
  }
  return masked.replace(KEY_SHAPE, 'rctl_***');
}

function paramName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: compare the name as sent.
  }
  return name.toLowerCase().replace(/[^a-z]/g, '');
}
