import { UsageError } from '../cmdutil/errors.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;
/** What people paste from the API's own URLs: the service's root is the base URL. */
const API_PATH = /\/api\/v[0-9]+\/?$/;

/**
 * The base URL as the client uses it, with a note for each thing that was made right: a
 * trailing `/api/v2`, a missing `http://` on a loopback address. Anything that cannot be
 * taken for what was meant is a usage error naming where it came from.
 */
export function normaliseBaseUrl(raw: string, source: string): { url: string; notes: string[] } {
  const notes: string[] = [];
  let text = raw.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const host = text.split('/')[0]!;
    if (!LOOPBACK.test(host)) {
      throw new UsageError(`base URL \`${raw}\` (from ${source}) has no scheme`, `write https://${text} (or http:// for a plain-HTTP service)`);
    }
    text = `http://${text}`;
    notes.push(`note: base URL \`${raw}\` has no scheme; using ${text} (a loopback address)`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL \`${raw}\` (from ${source}) is not an http(s) URL`, 'set --base-url, REPORTCTL_BASE_URL or `reportctl config set base-url URL`');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`base URL \`${raw}\` (from ${source}) is not an http(s) URL`, 'set --base-url, REPORTCTL_BASE_URL or `reportctl config set base-url URL`');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (API_PATH.test(path)) {
    path = path.replace(API_PATH, '');
    notes.push(`note: the base URL is the service's root, without ${url.pathname.replace(/\/+$/, '').slice(path.length)}; using ${url.origin}${path}`);
  }
  return { url: `${url.origin}${path}`, notes };
}
