// What the steps' requests are built from: the catalog the service served this run, the
// templates this run made, and what the account held before it.
import type { ScenarioContext, StepRequest } from './step.js';

export const TEMPLATES = '/api/v2/templates';
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

/** The path of a template by id: ids go into paths encoded, whatever a service answered. */
export const templatePath = (id: string) => `${TEMPLATES}/${encodeURIComponent(id)}`;

/** A request to the template created as `label`; none while it does not exist. */
export function atTemplate(context: ScenarioContext, label: string, method: 'GET' | 'DELETE' | 'PUT', extra: Partial<StepRequest> = {}): StepRequest | undefined {
  const created = context.created.get(label);
  return created === undefined ? undefined : { method, path: templatePath(created.id), ...extra };
}

export function bodyOf(context: ScenarioContext, step: string): Record<string, unknown> | undefined {
  const body = context.answers.get(step)?.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** A page's `data` as objects, whatever else the body holds; none when the body is not a page. */
export function itemsOf(body: unknown): Record<string, unknown>[] | undefined {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item)) : undefined;
}

/** A page's `total`, when it is a number. */
export function totalOf(body: unknown): number | undefined {
  const total = typeof body === 'object' && body !== null ? (body as { total?: unknown }).total : undefined;
  return typeof total === 'number' ? total : undefined;
}

type Query = NonNullable<StepRequest['query']>;

/** How many of the account's earlier templates a listing's filter matches. */
export function heldBefore(context: ScenarioContext, query: Query = {}): number {
  return context.before.filter((template) =>
    (['analysisType', 'reportType', 'reportCategory'] as const).every((field) => query[field] === undefined || template[field] === query[field]),
  ).length;
}

/**
 * A page of templates as this run sees it on any account: the total less what the account
 * held before the run, and of the items only this run's names, sorted (an earlier template
 * on the page, or the page's order, would tell nothing of serve).
 */
export function oursOnly(query: Query) {
  return (body: unknown, context: ScenarioContext): unknown => {
    const total = totalOf(body);
    const items = itemsOf(body);
    if (total === undefined || items === undefined) return body;
    const names = items.map((item) => item.name).filter((name): name is string => typeof name === 'string' && name.startsWith(context.prefix));
    return { ...(body as object), total: total - heldBefore(context, query), data: names.sort() };
  };
}
