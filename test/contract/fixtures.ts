import type { z } from 'zod';
import {
  templateBodySchema,
  templateCatalogIssues,
  toValidationIssues,
  withoutServerOwnedFields,
  type AnalysisType,
  type Catalogs,
  type ReportCategory,
  type ReportTypeEntry,
  type ValidationIssue,
} from '../../src/contract/index.js';
import { seedCatalogs } from '../../src/contract/default-catalogs.js';

/** The issues a 400 would carry: parsed exactly as the server's `parseOr400` does. */
export function issuesOf(schema: z.ZodType, value: unknown): ValidationIssue[] {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? [] : toValidationIssues(result.error);
}

export function pathsOf(schema: z.ZodType, value: unknown): string[] {
  return issuesOf(schema, value).map((issue) => issue.path);
}

/** The one issue at `path`; fails the test when there is none. */
export function issueAt(schema: z.ZodType, value: unknown, path: string): ValidationIssue {
  const issues = issuesOf(schema, value);
  const found = issues.find((issue) => issue.path === path);
  if (found === undefined) throw new Error(`no issue at ${JSON.stringify(path)}; issues: ${JSON.stringify(issues)}`);
  return found;
}

/** The parsed value; fails the test with the issues when the value is rejected. */
export function parsed<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new Error(`rejected: ${JSON.stringify(toValidationIssues(result.error))}`);
  return result.data;
}

/** A catalog entry, looked up rather than hard-coded so the tests follow the seed. */
export function entryWhere(
  analysisType: AnalysisType,
  predicate: (entry: ReportTypeEntry) => boolean,
  catalogs: Catalogs = seedCatalogs,
): ReportTypeEntry {
  const entry = catalogs.reportTypes[analysisType].find(predicate);
  if (entry === undefined) throw new Error(`the seed catalog has no such ${analysisType} entry`);
  return entry;
}

export const entryOfCategory = (analysisType: AnalysisType, category: ReportCategory): ReportTypeEntry =>
  entryWhere(analysisType, (entry) => entry.reportCategory === category);

/** The five required fields, tied to `entry`, plus `extra`. */
export function bodyFor(analysisType: AnalysisType, entry: ReportTypeEntry, extra: Record<string, unknown> = {}) {
  return {
    name: 'Lot 7 stand count',
    analysisType,
    reportType: entry.key,
    reportTypeId: entry.id,
    reportCategory: entry.reportCategory,
    ...extra,
  };
}

/** A minimal general counting body. */
export function generalBody(extra: Record<string, unknown> = {}) {
  return bodyFor('counting', entryOfCategory('counting', 'general'), extra);
}

/** A vegetation-index counting body (indexName and friends come in `extra`). */
export function vegetationBody(extra: Record<string, unknown> = {}) {
  return bodyFor('counting', entryOfCategory('counting', 'vegetation_index'), extra);
}

/** Runs the server's sequence: strict body schema, drop server-owned fields, catalog rules. */
export function catalogIssuesOf(body: unknown, catalogs: Catalogs = seedCatalogs): ValidationIssue[] {
  return templateCatalogIssues(withoutServerOwnedFields(parsed(templateBodySchema, body)), catalogs);
}

/** A layout element with a valid box, overridable. */
export function element(extra: Record<string, unknown> = {}) {
  return { type: 'map', x: 0.1, y: 0.1, width: 0.5, height: 0.5, ...extra };
}
