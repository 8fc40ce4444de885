// Building the page without innerHTML: every text the service sends is user input, so it only
// ever reaches the page as a text node.

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

/** An element with attributes (false/undefined ones left out) and children as text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/**
 * An SVG document as an image. The renderers escape what they draw, and as an <img> it can
 * run nothing and needs no inline style under the page's Content-Security-Policy.
 */
export function svgImage(svg: string, alt: string, className?: string): HTMLImageElement {
  return el('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt, class: className });
}

export function labelled(label: string, control: HTMLElement): HTMLLabelElement {
  return el('label', {}, el('span', { class: 'label' }, label), control);
}

export function select(name: string, choices: readonly string[], anyLabel: string, value = ''): HTMLSelectElement {
  const control = el('select', { name });
  append(control, el('option', { value: '' }, anyLabel), ...choices.map((choice) => el('option', { value: choice }, choice)));
  control.value = value;
  return control;
}

export function button(text: string, onClick: () => void, attributes: Attributes = {}): HTMLButtonElement {
  const control = el('button', { type: 'button', ...attributes }, text);
  control.addEventListener('click', onClick);
  return control;
}

export function message(text: string, kind: 'info' | 'error' = 'info'): HTMLParagraphElement {
  return el('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** `2026-05-01 10:00:00Z` from an ISO timestamp; what the service sent when it is not one. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : iso;
}

/** Previous / next buttons and where the list is, for any paginated list. */
export function pager(page: { page: number; limit: number; total: number }, noun: string, go: (to: number) => void): HTMLElement {
  const pages = Math.max(1, Math.ceil(page.total / page.limit));
  return el(
    'nav',
    { class: 'pager', 'aria-label': `Pages of ${noun}s` },
    button('Previous page', () => go(page.page - 1), { disabled: page.page <= 1, 'data-focus-key': 'pager-previous' }),
    el('span', {}, `Page ${page.page} of ${pages} · ${page.total} ${noun}${page.total === 1 ? '' : 's'}`),
    button('Next page', () => go(page.page + 1), { disabled: page.page >= pages, 'data-focus-key': 'pager-next' }),
  );
}
