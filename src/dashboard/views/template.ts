import { withoutServerOwned } from '../../contract/vocabulary.js';
import type { Template } from '../../contract/index.js';
import { renderTemplateSvg } from '../../preview/index.js';
import { append, button, el, message, shortTime, svgImage } from '../dom.js';
import type { Service } from '../api-client.js';
import type { View } from './view.js';

const NAME_MAX = 200;
const ORIENTATIONS = ['portrait', 'landscape'] as const;

/** One template: its page in both orientations, its JSON, and delete / duplicate. */
export function templateView(service: Service, id: string): View {
  const heading = el('h2', { tabindex: '-1' }, 'Template');
  const body = el('div', { 'aria-live': 'polite' }, message('Loading…'));
  const element = el('section', { class: 'view' }, el('p', {}, el('a', { href: '#/templates' }, '← All templates')), heading, body);
  const path = `/api/v2/templates/${encodeURIComponent(id)}`;

  const show = (template: Template) => {
    heading.textContent = template.name;
    const status = el('div', { role: 'status' });
    const confirmDelete = el(
      'div',
      { class: 'confirm', hidden: true },
      el('span', {}, 'Delete this template for good?'),
      button('Yes, delete it', () => void remove(), { class: 'danger', id: 'confirm-delete' }),
      button('Keep it', () => {
        confirmDelete.hidden = true;
        deleteButton.focus();
      }),
    );
    const deleteButton = button('Delete…', () => {
      confirmDelete.hidden = false;
      (confirmDelete.querySelector('.danger') as HTMLButtonElement).focus();
    });
    const remove = async () => {
      try {
        await service.delete(path);
        location.hash = '#/templates';
      } catch (error) {
        status.replaceChildren(message(`Could not delete: ${(error as Error).message}`, 'error'));
      }
    };
    const duplicate = async () => {
      const copy = withoutServerOwned({ ...template, name: `${template.name} (copy)`.slice(0, NAME_MAX) });
      try {
        const created = await service.post<Template>('/api/v2/templates', copy);
        location.hash = `#/templates/${encodeURIComponent(created.id)}`;
      } catch (error) {
        status.replaceChildren(message(`Could not duplicate: ${(error as Error).message}`, 'error'));
      }
    };
    const previews = el('div', { class: 'previews' });
    const problems = new Set<string>();
    for (const orientation of ORIENTATIONS) {
      const rendered = renderTemplateSvg(template, { orientation });
      rendered.problems.forEach((problem) => problems.add(problem));
      append(
        previews,
        el('figure', { class: `preview ${orientation}` }, svgImage(rendered.svg, `${orientation} layout of ${template.name}`), el('figcaption', {}, orientation)),
      );
    }
    body.replaceChildren(
      el('p', { class: 'meta' }, `${template.analysisType} · ${template.reportType} · ${template.reportCategory} · ${template.paperSize ?? 'default paper'} · updated ${shortTime(template.updatedAt)}`),
      el('div', { class: 'actions' }, button('Duplicate', () => void duplicate()), deleteButton),
      confirmDelete,
      status,
      el('h3', {}, 'Preview'),
      el('ul', { class: 'problems', 'aria-label': 'Problems', hidden: problems.size === 0 }, ...[...problems].map((problem) => el('li', {}, problem))),
      previews,
      el('h3', {}, 'JSON'),
      el('pre', { class: 'json', tabindex: '0', 'aria-label': 'Template JSON' }, JSON.stringify(template, null, 2)),
    );
    heading.focus();
  };

  service
    .get<Template>(path)
    .then(show)
    .catch((error: Error) => body.replaceChildren(message(`Could not load the template: ${error.message}`, 'error')));
  return { title: 'Template', element };
}
