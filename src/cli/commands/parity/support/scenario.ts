import type { Method, OperationId } from '../../../../contract/endpoints.js';
import { parityFormulas } from './formulas.js';

/** Which key a request carries: the account's, none, or one the service never issued. */
export type KeyUse = 'account' | 'none' | 'wrong';

export interface StepRequest {
  method: Method;
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  key?: KeyUse;
  ifNoneMatch?: string;
}

/** What a service answered, as sent. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A template as a listing shows it: what a filter matches on. */
export interface ListedTemplate {
  name: string;
  analysisType?: string;
  reportType?: string;
  reportCategory?: string;
}

/** What one run of the scenario learns as it goes, and what the requests are built from. */
export interface ScenarioContext {
  /** This run's name prefix, on everything it creates. */
  prefix: string;
  /** Templates the account held before the run: taken from the totals, so totals compare. */
  before: readonly ListedTemplate[];
  /** Every earlier step's answer, by step name. */
  answers: Map<string, Answer>;
  /** Templates this run created and has not deleted yet, by the label of the step that made them. */
  created: Map<string, string>;
}

export interface Step {
  /** `operationId` or `operationId.case`: unique, and the name of its file in a recording. */
  name: string;
  operation: OperationId;
  /** The request, or undefined when an earlier answer it needs is missing (not comparable). */
  request(context: ScenarioContext): StepRequest | undefined;
  /** Steps whose answers this one's request is built from (run first by `--only`). */
  needs?: readonly string[];
  /** A 2xx answer's `id` is a template this run created, known by this label until deleted. */
  creates?: string;
  /** A 2xx answer means the template with this label is gone. */
  deletes?: string;
  /** Body paths compared by value, besides the error code, issue paths and formula verdicts. */
  values?: readonly string[];
  /** The body's `data` comes in no promised order: compared sorted. */
  unordered?: true;
  /** What of the body is compared, when not all of it. */
  project?(body: unknown, context: ScenarioContext): unknown;
}

const TEMPLATES = '/api/v2/templates';
const NOT_ISSUED_KEY = `rctl_${'A'.repeat(43)}`;
/** Well formed, and no account's: answers exactly as another account's template would. */
const NO_ONES_ID = '00000000-0000-4000-8000-000000000000';

interface ReportTypeEntry {
  id: string;
  key: string;
  reportCategory: string;
  statistics?: string[];
}

/** The first report type of a category in the catalog the service served this run. */
function reportTypeOf(context: ScenarioContext, category: 'general' | 'vegetation_index'): { analysisType: string; entry: ReportTypeEntry } | undefined {
  const catalog = context.answers.get('listReportTypes')?.body;
  if (typeof catalog !== 'object' || catalog === null) return undefined;
  for (const [analysisType, entries] of Object.entries(catalog as Record<string, unknown>)) {
    if (!Array.isArray(entries)) continue;
    const entry = (entries as ReportTypeEntry[]).find((candidate) => candidate?.reportCategory === category);
    if (entry) return { analysisType, entry };
  }
  return undefined;
}

/** A body the service should accept, built from its own catalog; undefined without one. */
function templateBody(context: ScenarioContext, label: string, category: 'general' | 'vegetation_index', extra: Record<string, unknown> = {}) {
  const found = reportTypeOf(context, category);
  if (!found) return undefined;
  return {
    name: `${context.prefix}${label}`,
    analysisType: found.analysisType,
    reportType: found.entry.key,
    reportTypeId: found.entry.id,
    reportCategory: category,
    ...(category === 'vegetation_index' ? { indexName: 'NDVI' } : {}),
    ...extra,
  };
}

const customIndex = (formula: string, extra: Record<string, unknown> = {}) => ({ indexName: 'Custom_Index', formula, ...extra });

function idOf(context: ScenarioContext, label: string): string | undefined {
  return context.created.get(label);
}

/** A request to the template created as `label`; none while it does not exist. */
function atTemplate(context: ScenarioContext, label: string, method: 'GET' | 'DELETE'): StepRequest | undefined {
  const id = idOf(context, label);
  return id === undefined ? undefined : { method, path: `${TEMPLATES}/${id}` };
}

function bodyOf(context: ScenarioContext, step: string): Record<string, unknown> | undefined {
  const body = context.answers.get(step)?.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** How many of the account's earlier templates a listing's filter matches. */
function heldBefore(context: ScenarioContext, query: Record<string, string | number> = {}): number {
  return context.before.filter((template) =>
    (['analysisType', 'reportType', 'reportCategory'] as const).every((field) => query[field] === undefined || template[field] === query[field]),
  ).length;
}

/** A listing's total less what the account held before the run: the same on any account. */
function totalOfOurs(query: Record<string, string | number>) {
  return (body: unknown, context: ScenarioContext) => {
    if (typeof body !== 'object' || body === null || typeof (body as { total?: unknown }).total !== 'number') return body;
    return { ...body, total: (body as { total: number }).total - heldBefore(context, query) };
  };
}

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
 * The scenario, in order: catalogs first (the bodies are built from them), then templates
 * from creation to deletion, bad input, the read-only resources and the formula corpus.
 * Every operation of the contract has at least one step.
 */
export const scenario: readonly Step[] = [
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
  { name: 'listQueues', operation: 'listQueues', request: () => ({ method: 'GET', path: '/api/v2/queues', query: { limit: 5 } }) },
  { name: 'listQueueRuns', operation: 'listQueueRuns', request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { limit: 5 } }) },
  {
    name: 'listQueueRuns.status',
    operation: 'listQueueRuns',
    request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { status: 'completed', limit: 5 } }),
  },
  {
    name: 'listQueueRuns.inventedStatus',
    operation: 'listQueueRuns',
    request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { status: 'no_such_status' } }),
  },
  { name: 'listAnalyses', operation: 'listAnalyses', request: () => ({ method: 'GET', path: '/api/v2/analyses', query: { limit: 5 } }) },
  {
    name: 'listAnalyses.analysisType',
    operation: 'listAnalyses',
    request: () => ({ method: 'GET', path: '/api/v2/analyses', query: { analysisType: 'counting', limit: 5 } }),
  },
  // The deprecated route: its headers, and its data in storage order.
  { name: 'searchAnalysesV0', operation: 'searchAnalysesV0', request: () => ({ method: 'POST', path: '/api/v0/analyses', body: {} }), unordered: true },
  {
    name: 'searchAnalysesV0.unknownField',
    operation: 'searchAnalysesV0',
    request: () => ({ method: 'POST', path: '/api/v0/analyses', body: { lot: 'x' } }),
  },
  {
    name: 'getOpenApiDocument',
    operation: 'getOpenApiDocument',
    request: () => ({ method: 'GET', path: '/api/v2/openapi.json' }),
    // The document's wording is its own; which operations it describes is what compares.
    project: (body) => {
      const paths = (body as { paths?: Record<string, object> } | undefined)?.paths ?? {};
      return { operations: Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)).sort() };
    },
    values: ['operations'],
  },
  {
    name: 'validateFormula.missing',
    operation: 'validateFormula',
    request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: {} }),
  },
  ...parityFormulas.map(
    (formula, at): Step => ({
      name: `validateFormula.${String(at + 1).padStart(2, '0')}`,
      operation: 'validateFormula',
      request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: { formula } }),
      values: ['errors[*].offset'],
    }),
  ),
];

/** The steps of these operations and every step they need, in the scenario's order. */
export function stepsOf(operations: readonly string[]): readonly Step[] {
  if (operations.length === 0) return scenario;
  const byName = new Map(scenario.map((step) => [step.name, step]));
  const wanted = new Set<string>();
  const want = (step: Step) => {
    if (wanted.has(step.name)) return;
    wanted.add(step.name);
    for (const name of step.needs ?? []) want(byName.get(name)!);
  };
  for (const step of scenario) if (operations.includes(step.operation)) want(step);
  return scenario.filter((step) => wanted.has(step.name));
}

/** The key a request carries, given the account's. */
export function keyFor(use: KeyUse | undefined, accountKey: string): string | undefined {
  if (use === 'none') return undefined;
  return use === 'wrong' ? NOT_ISSUED_KEY : accountKey;
}
