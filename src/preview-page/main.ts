// The preview page: trades the URL's one-time code for a session, then follows the file's
// events. Nothing is asked of the server before there is a session.
import { readEvents } from './events.js';
import type { PreviewEvent } from './protocol.js';
import { PreviewView } from './view.js';

const STORAGE_NAME = 'reportctl.previewSession';
/** Reconnections tried, 1, 2, 4 and 8 s apart, before the page says reportctl is gone. */
const RETRIES = 4;

const view = new PreviewView(document.getElementById('main')!, document.getElementById('file')!, document.getElementById('status')!);

/** The session: from the URL's code (taken out of the address bar), or the one this tab already has. */
async function session(): Promise<string | null> {
  const code = /^#code=([\w-]+)$/.exec(location.hash)?.[1];
  if (location.hash !== '') history.replaceState(null, '', location.pathname);
  if (code !== undefined) {
    const response = await fetch('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    if (response.ok) {
      const { token } = (await response.json()) as { token: string };
      sessionStorage.setItem(STORAGE_NAME, token);
      return token;
    }
    // A used link in a tab that already has a session (the same URL opened again) still works.
    return sessionStorage.getItem(STORAGE_NAME) ?? (view.refused('This link was used already: each link works once. Start the preview again for a new one.'), null);
  }
  return sessionStorage.getItem(STORAGE_NAME) ?? (view.refused('Open the link that `reportctl templates preview FILE --watch` printed.'), null);
}

/** Follows the events until the server says it stopped, refuses the session, or stays gone. */
async function follow(token: string): Promise<void> {
  for (let failures = 0; ; ) {
    const response = await fetch('/events', { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' }).catch(() => undefined);
    if (response?.status === 401) {
      sessionStorage.removeItem(STORAGE_NAME);
      return view.refused('This page’s session is over (the preview was started again?). Open the link it printed.');
    }
    let stopped = false;
    if (response?.ok && response.body) {
      view.connected();
      failures = 0;
      await readEvents(response.body, ({ event, data }) => {
        if (event === 'stopped') stopped = true;
        else view.show(JSON.parse(data) as PreviewEvent);
      }).catch(() => undefined);
    }
    if (stopped) return view.disconnected('stopped');
    if (++failures > RETRIES) return view.disconnected('gone');
    view.disconnected('retrying');
    await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (failures - 1)));
  }
}

void session().then((token) => (token === null ? undefined : follow(token)));
