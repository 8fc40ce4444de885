// What a scenario's requests are built from: the types of a step and its context, and the
// helpers every group of steps shares.
import type { Method, OperationId } from '../../../../contract/endpoints.js';

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

export const TEMPLATES = '/api/v2/templates';
export const NOT_ISSUED_KEY = `rctl_${'A'.repeat(43)}`;
/** Well formed, and no account's: answers exactly as another account's template would. */
export const NO_ONES_ID = '00000000-0000-4000-8000-000000000000';

export interface ReportTypeEntry {
  id: string;
  key: string;
  reportCategory: string;
  statistics?: string[];
}

/** The first report type of a category in the catalog the service served this run. */
export function reportTypeOf(context: ScenarioContext, category: 'general' | 'vegetation_index'): { analysisType: string; entry: ReportTypeEntry } | undefined {
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
export function templateBody(context: ScenarioContext, label: string, category: 'general' | 'vegetation_index', extra: Record<string, unknown> = {}) {
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

export const customIndex = (formula: string, extra: Record<string, unknown> = {}) => ({ indexName: 'Custom_Index', formula, ...extra });

export function idOf(context: ScenarioContext, label: string): string | undefined {
  return context.created.get(label);
}

/** A request to the template created as `label`; none while it does not exist. */
export function atTemplate(context: ScenarioContext, label: string, method: 'GET' | 'DELETE'): StepRequest | undefined {
  const id = idOf(context, label);
  return id === undefined ? undefined : { method, path: `${TEMPLATES}/${id}` };
}

export function bodyOf(context: ScenarioContext, step: string): Record<string, unknown> | undefined {
  const body = context.answers.get(step)?.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** How many of the account's earlier templates a listing's filter matches. */
export function heldBefore(context: ScenarioContext, query: Record<string, string | number> = {}): number {
  return context.before.filter((template) =>
    (['analysisType', 'reportType', 'reportCategory'] as const).every((field) => query[field] === undefined || template[field] === query[field]),
  ).length;
}

/** A listing's total less what the account held before the run: the same on any account. */
export function totalOfOurs(query: Record<string, string | number>) {
  return (body: unknown, context: ScenarioContext) => {
    if (typeof body !== 'object' || body === null || typeof (body as { total?: unknown }).total !== 'number') return body;
    return { ...body, total: (body as { total: number }).total - heldBefore(context, query) };
  };
}

/** The key a request carries, given the account's. */
export function keyFor(use: KeyUse | undefined, accountKey: string): string | undefined {
  if (use === 'none') return undefined;
  return use === 'wrong' ? NOT_ISSUED_KEY : accountKey;
}
