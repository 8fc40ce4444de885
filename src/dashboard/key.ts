// The API key lives in sessionStorage only (gone with the tab). A key handed over in the URL
// fragment (#key=…, as `serve --demo` prints it) never reaches the server, and is taken out
// of the address bar at once so it stays out of history and screenshots.

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

/** Moves a `#key=…` fragment into sessionStorage and out of the address bar. */
export function takeKeyFromFragment(): void {
  const match = /^#key=([^&]*)/.exec(location.hash);
  if (!match) return;
  let key = '';
  try {
    key = decodeURIComponent(match[1]!);
  } catch {
    key = '';
  }
  history.replaceState(null, '', `${location.pathname}${location.search}#/templates`);
  if (key.trim() !== '') storeKey(key);
}
