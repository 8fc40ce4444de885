import { analysisTypes, reportCategories } from '../../contract/vocabulary.js';
import type { Paginated, Template } from '../../contract/index.js';
import { renderTemplateSvg } from '../../preview/index.js';
import { append, el, labelled, message, pager, select, shortTime, svgImage } from '../dom.js';
import type { Service } from '../api-client.js';
import type { View } from './view.js';

const PAGE_SIZE = 20;

/** The filters of the list query (GET /api/v2/templates), kept while the tab lives. */
const filters = { analysisType: '', reportType: '', reportCategory: '', page: 1 };

export function templatesView(service: Service): View {
  const analysisType = select('analysisType', analysisTypes, 'any', filters.analysisType);
  const reportCategory = select('reportCategory', reportCategories, 'any', filters.reportCategory);
  const reportType = el('input', { type: 'text', name: 'reportType', value: filters.reportType, placeholder: 'e.g. plant_count' });
  const form = el(
    'form',
    { class: 'filters', 'aria-label': 'Filter templates' },
    labelled('Analysis type', analysisType),
    labelled('Report category', reportCategory),
    labelled('Report type', reportType),
    el('button', { type: 'submit' }, 'Apply filters'),
  );
  const results = el('section', { class: 'results', 'aria-live': 'polite', 'aria-busy': 'true' });
  const loading = message('Loading templates…');
  const element = el('section', { class: 'view' }, el('h2', {}, 'Templates'), form, results);

  const load = async () => {
    results.setAttribute('aria-busy', 'true');
    // Until the answer: said in words, so an empty list is never mistaken for no templates.
    results.replaceChildren(loading);
    try {
      const page = await service.get<Paginated<Template>>('/api/v2/templates', {
        page: filters.page,
        limit: PAGE_SIZE,
        analysisType: filters.analysisType,
        reportType: filters.reportType.trim(),
        reportCategory: filters.reportCategory,
      });
      results.replaceChildren(
        ...templateList(page),
        pager(page, 'template', (to) => {
          filters.page = to;
          void load();
        }),
      );
    } catch (error) {
      results.replaceChildren(message(`Could not list templates: ${(error as Error).message}`, 'error'));
    } finally {
      results.setAttribute('aria-busy', 'false');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(filters, { analysisType: analysisType.value, reportCategory: reportCategory.value, reportType: reportType.value, page: 1 });
    void load();
  });
  void load();
  return { title: 'Templates', element };
}

function templateList(page: Paginated<Template>): HTMLElement[] {
  if (page.data.length === 0) return [message('No templates match.')];
  const list = el('ul', { class: 'cards' });
  for (const template of page.data) {
    const { svg } = renderTemplateSvg(template, { thumbnail: true });
    append(
      list,
      el(
        'li',
        { class: 'card' },
        svgImage(svg, `Layout of ${template.name}`, 'thumbnail'),
        el(
          'div',
          {},
          el('a', { href: `#/templates/${encodeURIComponent(template.id)}`, class: 'card-title' }, template.name),
          el('p', { class: 'meta' }, `${template.analysisType} · ${template.reportType} · ${template.reportCategory}`),
          el('p', { class: 'meta' }, `updated ${shortTime(template.updatedAt)}`),
        ),
      ),
    );
  }
  return [list];
}
