import { analysisTypes } from '../../contract/vocabulary.js';
import type { ReportTypesCatalog, StatisticsCatalog, VegetationIndexDefaults } from '../../contract/index.js';
import { renderColourScaleSvg } from '../../preview/index.js';
import { el, message, svgImage } from '../dom.js';
import type { Service } from '../api-client.js';
import type { View } from './view.js';

/** The three catalogs, as the service serves them, with each colour scale drawn. */
export function catalogsView(service: Service): View {
  const body = el('div', { 'aria-live': 'polite' }, message('Loading…'));
  const element = el('section', { class: 'view' }, el('h2', {}, 'Catalogs'), body);
  Promise.all([
    service.get<ReportTypesCatalog>('/api/v2/catalogs/report-types'),
    service.get<StatisticsCatalog>('/api/v2/catalogs/statistics'),
    service.get<VegetationIndexDefaults>('/api/v2/catalogs/vegetation-index-defaults'),
  ])
    .then(([reportTypes, statistics, defaults]) => body.replaceChildren(reportTypesSection(reportTypes), statisticsSection(statistics), defaultsSection(defaults)))
    .catch((error: Error) => body.replaceChildren(message(`Could not load the catalogs: ${error.message}`, 'error')));
  return { title: 'Catalogs', element };
}

function table(caption: string, headings: string[], rows: (string | Node)[][]): HTMLElement {
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    el(
      'table',
      {},
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...headings.map((heading) => el('th', { scope: 'col' }, heading)))),
      el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, cell))))),
    ),
  );
}

function reportTypesSection(catalog: ReportTypesCatalog): HTMLElement {
  return el(
    'section',
    { id: 'report-types' },
    el('h3', {}, 'Report types'),
    ...analysisTypes.map((analysisType) =>
      table(
        analysisType,
        ['Key', 'Label (en)', 'Label (es)', 'Category', 'Statistics'],
        (catalog[analysisType] ?? []).map((entry) => [entry.key, entry.label.en, entry.label.es, entry.reportCategory, entry.statistics.join(', ')]),
      ),
    ),
  );
}

function statisticsSection(catalog: StatisticsCatalog): HTMLElement {
  return el(
    'section',
    { id: 'statistics' },
    el('h3', {}, 'Statistics'),
    el('dl', { class: 'pairs' }, ...analysisTypes.flatMap((analysisType) => [el('dt', {}, analysisType), el('dd', {}, (catalog[analysisType] ?? []).join(', '))])),
  );
}

function defaultsSection(defaults: VegetationIndexDefaults): HTMLElement {
  const scales = Object.entries(defaults.colorScales).map(([indexName, scale]) =>
    el(
      'li',
      { class: 'scale' },
      el('span', { class: 'scale-name' }, indexName),
      svgImage(renderColourScaleSvg(scale, { width: 320, height: 44 }), `Colour scale of ${indexName}`, 'scale-image'),
      el('span', { class: 'meta' }, scale.stops.map((stop) => `${stop.value} ${stop.color}`).join(' · ')),
    ),
  );
  const { customFormula, defaults: pageDefaults } = defaults;
  return el(
    'section',
    { id: 'vegetation-index-defaults' },
    el('h3', {}, 'Vegetation-index defaults'),
    el('p', {}, `Indices: ${defaults.indexNames.join(', ')}`),
    el('h4', {}, 'Colour scales'),
    el('ul', { class: 'scales' }, ...scales),
    el('h4', {}, 'Page defaults'),
    el(
      'dl',
      { class: 'pairs' },
      el('dt', {}, 'Paper size'),
      el('dd', {}, pageDefaults.paperSize),
      el('dt', {}, 'Map resolution'),
      el('dd', {}, `${pageDefaults.mapResolution} dpi`),
      el('dt', {}, 'Margins (cm)'),
      el('dd', {}, `top ${pageDefaults.margins.top}, right ${pageDefaults.margins.right}, bottom ${pageDefaults.margins.bottom}, left ${pageDefaults.margins.left}`),
      el('dt', {}, 'SAVI L'),
      el('dd', {}, String(pageDefaults.saviL)),
    ),
    el('h4', {}, 'Custom formula rules'),
    el(
      'dl',
      { class: 'pairs' },
      el('dt', {}, 'Bands'),
      el('dd', {}, customFormula.allowedBands.join(', ')),
      el('dt', {}, 'Scalars'),
      el('dd', {}, customFormula.allowedScalars.join(', ')),
      el('dt', {}, 'Functions'),
      el('dd', {}, customFormula.allowedFunctions.join(', ')),
      el('dt', {}, 'Division needs eps'),
      el('dd', {}, customFormula.rules.divisionRequiresEps ? 'yes' : 'no'),
    ),
  );
}
