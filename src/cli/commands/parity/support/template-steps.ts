import {
  atTemplate,
  bodyOf,
  customIndex,
  idOf,
  NO_ONES_ID,
  reportTypeOf,
  TEMPLATES,
  templateBody,
  totalOfOurs,
  type KeyUse,
  type ScenarioContext,
  type Step,
} from './context.js';

const THE_CREATES = ['createTemplate', 'createTemplate.vegetationIndex', 'createTemplate.customIndex'];

function listing(
  name: string,
  query: (context: ScenarioContext) => Record<string, string | number> | undefined,
  values: readonly string[] = ['total'],
  needs: readonly string[] = ['listReportTypes', ...THE_CREATES],
): Step {
  return {
    name,
    needs,
    operation: 'listTemplates',
    request: (context) => {
      const asked = query(context);
      return asked === undefined ? undefined : { method: 'GET', path: TEMPLATES, query: asked };
    },
    values,
    project: (body, context) => totalOfOurs(query(context) ?? {})(body, context),
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
      const id = idOf(context, 'general');
      const body = templateBody(context, label, 'general', extra);
      return id === undefined || body === undefined ? undefined : { method: 'PUT', path: `${TEMPLATES}/${id}`, body };
    },
  };
}

/** A create the service should refuse: the body of the general template with one change. */
function refusedCreate(name: string, change: (body: Record<string, unknown>) => Record<string, unknown> | undefined, key?: KeyUse): Step {
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
  };
}

/**
 * The templates' steps, in order: catalogs first (the bodies are built from them), then
 * templates from creation to deletion, with bad input between.
 */
export const templateSteps: readonly Step[] = [
  ...catalogSteps('listReportTypes', '/api/v2/catalogs/report-types'),
  ...catalogSteps('listStatistics', '/api/v2/catalogs/statistics'),
  ...catalogSteps('getVegetationIndexDefaults', '/api/v2/catalogs/vegetation-index-defaults'),
  { name: 'listPresets', operation: 'listPresets', request: () => ({ method: 'GET', path: `${TEMPLATES}/presets` }) },
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
  {
    name: 'getTemplate.someoneElses',
    operation: 'getTemplate',
    request: () => ({ method: 'GET', path: `${TEMPLATES}/${NO_ONES_ID}` }),
  },
  // Newest first is promised: the names of the three created show the order.
  listing('listTemplates', () => ({ limit: 3 }), ['total', 'data[*].name']),
  listing('listTemplates.analysisType', (context) => {
    const found = reportTypeOf(context, 'general');
    return found && { analysisType: found.analysisType, limit: 1 };
  }),
  listing('listTemplates.reportType', (context) => {
    const found = reportTypeOf(context, 'vegetation_index');
    return found && { reportType: found.entry.key, limit: 1 };
  }),
  listing('listTemplates.reportCategory', () => ({ reportCategory: 'vegetation_index', limit: 1 })),
  listing('listTemplates.pastTheEnd', (context) => {
    const total = bodyOf(context, 'listTemplates')?.total;
    return typeof total === 'number' ? { limit: 3, page: Math.ceil(total / 3) + 1 } : undefined;
  }, ['total', 'data'], ['listTemplates']),
  {
    name: 'listTemplates.quotedLimit',
    operation: 'listTemplates',
    request: () => ({ method: 'GET', path: TEMPLATES, query: { limit: 'many' } }),
  },
  { ...replacing('replaceTemplate', 'general-replaced', { paperSize: 'a4' }), values: ['name', 'paperSize', 'mapResolution'] },
  replacing('replaceTemplate.unknownField', 'general', { colour: 'green' }),
  refusedCreate('quotedNumber', (body) => ({ ...body, mapResolution: '150' })),
  refusedCreate('inventedReportType', (body) => ({ ...body, reportType: 'no_such_report_type' })),
  refusedCreate('inventedStatistic', (body) => ({ ...body, selectedStatistics: ['noSuchStatistic'] })),
  refusedCreate('unknownField', (body) => ({ ...body, colour: 'green' })),
  accepted('createTemplate.missingSaviL', 'refused-missingSaviL', 'vegetation_index', customIndex('(1 + L) * (NIR - R) / (NIR + R + L + eps)')),
  refusedCreate('wrongKey', (body) => body, 'wrong'),
  refusedCreate('noKey', (body) => body, 'none'),
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
    needs: ['deleteTemplate'],
    request: (context) => {
      const created = bodyOf(context, 'createTemplate.vegetationIndex')?.id;
      return typeof created === 'string' && !context.created.has('ndvi') ? { method: 'DELETE', path: `${TEMPLATES}/${created}` } : undefined;
    },
  },
];
