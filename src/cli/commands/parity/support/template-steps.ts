import { pagingSteps } from './paging-steps.js';
import { atTemplate, customIndex, NO_ONES_ID, oursOnly, reportTypeOf, TEMPLATES, templateBody, templatePath } from './requests.js';
import { namesFieldNotValidSet, namesFieldOnly, reportTypeKeys, statisticKeys } from './spec-rules.js';
import type { KeyUse, ScenarioContext, Step, StepRequest } from './step.js';

const THE_CREATES = ['createTemplate', 'createTemplate.vegetationIndex', 'createTemplate.customIndex'];

/** A filtered listing of templates: its total and this run's names on it, as on any account. */
function filtered(name: string, query: (context: ScenarioContext) => NonNullable<StepRequest['query']> | undefined): Step {
  return {
    name,
    needs: ['listReportTypes', ...THE_CREATES],
    operation: 'listTemplates',
    request: (context) => {
      const asked = query(context);
      return asked === undefined ? undefined : { method: 'GET', path: TEMPLATES, query: { ...asked, limit: 100 } };
    },
    values: ['total', 'data'],
    project: (body, context) => oursOnly(query(context) ?? {})(body, context),
  };
}

function catalogSteps(operation: 'listReportTypes' | 'listStatistics' | 'getVegetationIndexDefaults', path: string): Step[] {
  return [
    { name: operation, operation, request: () => ({ method: 'GET', path }) },
    {
      name: `${operation}.conditional`,
      operation,
      needs: [operation],
      request: (context) => {
        const etag = context.answers.get(operation)?.headers.etag;
        return etag === undefined ? undefined : { method: 'GET', path, ifNoneMatch: etag };
      },
    },
  ];
}

/** A create of a template by this label (the service may still refuse it: missingSaviL). */
function accepted(name: string, label: string, category: 'general' | 'vegetation_index', extra: Record<string, unknown> = {}): Step {
  return {
    name,
    operation: 'createTemplate',
    needs: ['listReportTypes'],
    creates: label,
    request: (context) => {
      const body = templateBody(context, label, category, extra);
      return body && { method: 'POST', path: TEMPLATES, body };
    },
  };
}

/** A PUT of the general template, renamed to `label`, with `extra`. */
function replacing(name: string, label: string, extra: Record<string, unknown>): Step {
  return {
    name,
    operation: 'replaceTemplate',
    needs: ['listReportTypes', 'createTemplate'],
    request: (context) => {
      const body = templateBody(context, label, 'general', extra);
      return body && atTemplate(context, 'general', 'PUT', { body });
    },
  };
}

/** A create the service should refuse: the body of the general template with one change. */
function refusedCreate(name: string, change: (body: Record<string, unknown>) => Record<string, unknown> | undefined, extra: Partial<Step> & { key?: KeyUse } = {}): Step {
  const { key, ...rest } = extra;
  return {
    name: `createTemplate.${name}`,
    operation: 'createTemplate',
    needs: ['listReportTypes'],
    creates: `refused-${name}`,
    request: (context) => {
      const body = templateBody(context, `refused-${name}`, 'general');
      const changed = body && change(body);
      return changed === undefined ? undefined : { method: 'POST', path: TEMPLATES, body: changed, ...(key ? { key } : {}) };
    },
    ...rest,
  };
}

const templatePages = pagingSteps({
  operation: 'listTemplates',
  path: TEMPLATES,
  first: 'listTemplates.defaultLimit',
  needs: ['listReportTypes', ...THE_CREATES],
  pages: { values: ['total', 'data'], project: oursOnly({}) },
});

/** Catalogs first (the bodies are built from them), then presets and templates from creation on. */
export const templatesCreatedSteps: readonly Step[] = [
  ...catalogSteps('listReportTypes', '/api/v2/catalogs/report-types'),
  ...catalogSteps('listStatistics', '/api/v2/catalogs/statistics'),
  ...catalogSteps('getVegetationIndexDefaults', '/api/v2/catalogs/vegetation-index-defaults'),
  accepted('createTemplate', 'general', 'general'),
  accepted('createTemplate.vegetationIndex', 'ndvi', 'vegetation_index'),
  accepted('createTemplate.customIndex', 'custom', 'vegetation_index', customIndex('(1 + L) * (NIR - R) / (NIR + R + L + eps)', { saviL: 0.5 })),
  {
    name: 'getTemplate',
    operation: 'getTemplate',
    needs: ['createTemplate'],
    request: (context) => atTemplate(context, 'general', 'GET'),
    // The defaults the service fills in.
    values: ['paperSize', 'mapResolution', 'margins', 'selectedStatistics', 'layouts'],
  },
  {
    name: 'getTemplate.customIndex',
    operation: 'getTemplate',
    needs: ['createTemplate.customIndex'],
    request: (context) => atTemplate(context, 'custom', 'GET'),
    values: ['indexName', 'formula', 'saviL', 'colorScale'],
  },
  { name: 'getTemplate.noOnes', operation: 'getTemplate', request: () => ({ method: 'GET', path: templatePath(NO_ONES_ID) }) },
  {
    // Newest first is promised: the names of the three created show the order.
    name: 'listTemplates',
    needs: ['listReportTypes', ...THE_CREATES],
    operation: 'listTemplates',
    request: () => ({ method: 'GET', path: TEMPLATES, query: { limit: 3 } }),
    values: ['data[*].name'],
    identity: 'data[*].name',
  },
  filtered('listTemplates.analysisType', (context) => {
    const found = reportTypeOf(context, 'general');
    return found && { analysisType: found.analysisType };
  }),
  filtered('listTemplates.reportType', (context) => {
    const found = reportTypeOf(context, 'vegetation_index');
    return found && { reportType: found.entry.key };
  }),
  filtered('listTemplates.reportCategory', () => ({ reportCategory: 'vegetation_index' })),
  ...templatePages,
];

/** Changes and refusals, after the accounts' steps have read the templates as created. */
export const templatesChangedSteps: readonly Step[] = [
  { ...replacing('replaceTemplate', 'general-replaced', { paperSize: 'a4' }), values: ['name', 'paperSize', 'mapResolution'] },
  replacing('replaceTemplate.unknownField', 'general', { colour: 'green' }),
  refusedCreate('quotedNumber', (body) => ({ ...body, mapResolution: '150' }), { specification: namesFieldOnly('mapResolution') }),
  refusedCreate('inventedReportType', (body) => ({ ...body, reportType: 'no_such_report_type' }), { specification: namesFieldNotValidSet('reportType', reportTypeKeys) }),
  refusedCreate('inventedStatistic', (body) => ({ ...body, selectedStatistics: ['noSuchStatistic'] }), {
    needs: ['listReportTypes', 'listStatistics'],
    specification: namesFieldNotValidSet('selectedStatistics', statisticKeys),
  }),
  refusedCreate('unknownField', (body) => ({ ...body, colour: 'green' })),
  accepted('createTemplate.missingSaviL', 'refused-missingSaviL', 'vegetation_index', customIndex('(1 + L) * (NIR - R) / (NIR + R + L + eps)')),
  refusedCreate('wrongKey', (body) => body, { key: 'wrong' }),
  refusedCreate('noKey', (body) => body, { key: 'none' }),
  {
    name: 'deleteTemplate',
    operation: 'deleteTemplate',
    needs: ['createTemplate.vegetationIndex'],
    deletes: 'ndvi',
    request: (context) => atTemplate(context, 'ndvi', 'DELETE'),
  },
  {
    name: 'deleteTemplate.again',
    operation: 'deleteTemplate',
    needs: ['createTemplate.vegetationIndex', 'deleteTemplate'],
    request: (context) => {
      const created = context.answers.get('createTemplate.vegetationIndex')?.body as { id?: unknown } | undefined;
      return typeof created?.id === 'string' && !context.created.has('ndvi') ? { method: 'DELETE', path: templatePath(created.id) } : undefined;
    },
  },
];
