import { el, message, svgImage } from '../dashboard/dom.js';
import type { DiagnosticsEvent, PictureEvent, PreviewEvent } from './protocol.js';

type Connection = 'live' | 'retrying' | 'stopped' | 'gone';

const time = (ms: number) => new Date(ms).toLocaleTimeString();

/**
 * What the page shows: the last good picture and, while the file is not a valid template, its
 * diagnostics beside it, with the picture marked as the last good one. Every text from the file
 * or the server reaches the page as a text node.
 */
export class PreviewView {
  private picture: PictureEvent | undefined;
  private diagnostics: DiagnosticsEvent | undefined;

  constructor(
    private readonly main: HTMLElement,
    private readonly file: HTMLElement,
    private readonly status: HTMLElement,
  ) {}

  show(event: PreviewEvent): void {
    if (event.kind === 'picture') [this.picture, this.diagnostics] = [event, undefined];
    else this.diagnostics = event;
    this.file.textContent = event.kind === 'picture' ? event.file : event.verdict.file;
    this.main.replaceChildren(...(this.diagnostics ? [diagnosticsSection(this.diagnostics)] : []), this.pictureSection());
    this.main.classList.toggle('invalid', this.diagnostics !== undefined);
    this.setConnection('live');
  }

  connected(): void {
    this.setConnection('live');
  }

  disconnected(how: Exclude<Connection, 'live'>): void {
    this.setConnection(how);
  }

  /** No session: the reason, and nothing of the file. */
  refused(reason: string): void {
    this.main.replaceChildren(message(reason, 'error'));
    this.status.textContent = '';
  }

  private setConnection(connection: Connection): void {
    document.body.dataset.connection = connection;
    const latest = Math.max(this.picture?.checkedAt ?? 0, this.diagnostics?.checkedAt ?? 0);
    const asOf = latest > 0 ? ` What you see is the file as of ${time(latest)}.` : '';
    this.status.textContent = {
      live: latest > 0 ? `Watching: redrawn at every save (last checked ${time(latest)}).` : 'Watching.',
      retrying: `Lost the connection to reportctl; trying again.${asOf}`,
      stopped: `Stopped: reportctl no longer watches this file.${asOf}`,
      gone: `reportctl is not running any more.${asOf}`,
    }[connection];
  }

  private pictureSection(): HTMLElement {
    const picture = this.picture;
    const stale = this.diagnostics !== undefined;
    const section = el('section', { class: `picture${stale ? ' stale' : ''}`, 'aria-labelledby': 'picture-heading' });
    if (!picture) {
      section.append(el('h2', { id: 'picture-heading' }, 'No picture yet'), el('p', { class: 'note' }, 'The page is drawn once the file is a valid template.'));
      return section;
    }
    section.append(
      el('h2', { id: 'picture-heading' }, stale ? `Last good version: ${picture.name}` : picture.name),
      el('p', { class: 'note' }, stale ? `As the file was at ${time(picture.checkedAt)}; it has errors now.` : `Checked at ${time(picture.checkedAt)}.`),
      el(
        'div',
        { class: 'previews' },
        ...picture.pages.map(({ orientation, svg }) =>
          el('figure', { class: `preview ${orientation}` }, svgImage(svg, `${orientation} layout of ${picture.name}${stale ? ' (last good version)' : ''}`), el('figcaption', {}, orientation)),
        ),
      ),
      el('ul', { class: 'problems', 'aria-label': 'Problems', hidden: picture.problems.length === 0 }, ...picture.problems.map((problem) => el('li', {}, problem))),
    );
    return section;
  }
}

function diagnosticsSection(diagnostics: DiagnosticsEvent): HTMLElement {
  const { verdict, hints } = diagnostics;
  const count = verdict.issues.length === 1 ? '1 issue' : `${verdict.issues.length} issues`;
  return el(
    'section',
    { class: 'diagnostics', role: 'alert', 'aria-labelledby': 'diagnostics-heading' },
    el('h2', { id: 'diagnostics-heading' }, 'Not a valid template'),
    el('p', { class: 'note' }, `Saved at ${time(diagnostics.checkedAt)}: ${verdict.reason ?? count}.`),
    el(
      'ul',
      { class: 'issues', hidden: verdict.issues.length === 0 },
      ...verdict.issues.map((issue) => {
        const text = issue.path !== '' && issue.message.startsWith(`${issue.path}: `) ? issue.message.slice(issue.path.length + 2) : issue.message;
        return el('li', {}, el('code', {}, issue.path === '' ? '(body)' : issue.path), ' ', text);
      }),
    ),
    el('ul', { class: 'hints', 'aria-label': 'Hints', hidden: hints.length === 0 }, ...hints.map((hint) => el('li', {}, hint))),
  );
}
