// The dashboard's entry: the key, the navigation between views, and nothing shown or asked of
// the service until there is a key.
import { DASHBOARD_CODE_MINUTES } from '../contract/vocabulary.js';
import { el, labelled, message } from './dom.js';
import { forgetKey, storedKey, storeKey, takeCodeFromFragment } from './key.js';
import { connectService, redeemCode, type Service, type ServiceError } from './api-client.js';
import { catalogsView } from './views/catalogs.js';
import { formulaView } from './views/formula.js';
import { queueRunsView } from './views/queue-runs.js';
import { templateView } from './views/template.js';
import { templatesView } from './views/templates.js';
import type { View } from './views/view.js';

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;
const forgetButton = document.getElementById('forget-key') as HTMLButtonElement;

let stopView: (() => void) | undefined;

function routeFor(hash: string, service: Service): View {
  const path = hash.replace(/^#/, '');
  const template = /^\/templates\/([^/]+)$/.exec(path);
  if (template) return templateView(service, decodedOr(template[1]!));
  if (path === '/queue-runs') return queueRunsView(service);
  if (path === '/catalogs') return catalogsView(service);
  if (path === '/formula') return formulaView();
  return templatesView(service);
}

/** A hand-edited hash may hold a malformed escape: then it names the id as written. */
function decodedOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function show(): void {
  stopView?.();
  stopView = undefined;
  main.replaceChildren();
  const key = storedKey();
  nav.hidden = key === null;
  forgetButton.hidden = key === null;
  if (key === null) {
    main.append(keyForm());
    return;
  }
  const service = connectService(key, refused);
  const view = routeFor(location.hash, service);
  for (const link of nav.querySelectorAll('a')) {
    const current = location.hash.startsWith(link.getAttribute('href') ?? '') || (link.getAttribute('href') === '#/templates' && !/^#\/\w/.test(location.hash));
    if (current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${view.title} · reportctl`;
  main.append(view.element);
  stopView = view.stop;
}

/** A key the service refuses (unknown or revoked) is dropped, and the page asks again. */
function refused(error: ServiceError): void {
  forgetKey();
  show();
  main.prepend(message(`The service refused the key: ${error.message}`, 'error'));
}

function keyForm(): HTMLElement {
  const input = el('input', { type: 'password', id: 'api-key', name: 'apiKey', autocomplete: 'off', spellcheck: 'false', required: true });
  const form = el(
    'form',
    { class: 'key-form', 'aria-labelledby': 'key-heading' },
    el('h2', { id: 'key-heading' }, 'API key'),
    el('p', {}, 'The dashboard shows what the service holds for one API key. It keeps the key in this tab only (sessionStorage) and sends it in the apiKey header, as any client does.'),
    labelled('API key', input),
    el('button', { type: 'submit' }, 'Use key'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.trim() === '') return;
    storeKey(input.value);
    show();
  });
  queueMicrotask(() => input.focus());
  return form;
}

/**
 * Trades a code from the URL for the key, only when the tab has none: a stored key is never
 * replaced without asking, so a page that opened this one cannot swap it.
 */
async function signIn(code: string | null): Promise<void> {
  if (code === null || storedKey() !== null) return show();
  main.replaceChildren(message('Signing in…'));
  const key = await redeemCode(code);
  if (key !== null) storeKey(key);
  show();
  if (key === null) {
    main.prepend(message(`This dashboard link was already used or has expired (each works once, within ${DASHBOARD_CODE_MINUTES} minutes). Enter the API key instead.`, 'error'));
  }
}

forgetButton.addEventListener('click', () => {
  forgetKey();
  show();
});
// A #code=… pasted into an open tab without a key is taken as on load.
window.addEventListener('hashchange', () => void signIn(takeCodeFromFragment()));
void signIn(takeCodeFromFragment());
