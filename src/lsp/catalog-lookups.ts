import type { Node } from 'jsonc-parser';
import type { AnalysisType, Catalogs, ReportTypeEntry } from '../contract/index.js';
import { nodeAtPath } from './json-text.js';

const ANALYSIS_TYPES: readonly string[] = ['counting', 'replanting', 'path'];

/** A string field of the document's top level, read from the tree (it may be half typed). */
export function topLevelString(root: Node | undefined, field: string): string | undefined {
  if (!root) return undefined;
  const { node, complete } = nodeAtPath(root, field);
  return complete && node.type === 'string' ? (node.value as string) : undefined;
}

/** The document's analysisType when it is one of the service's. */
export function analysisTypeOf(root: Node | undefined): AnalysisType | undefined {
  const value = topLevelString(root, 'analysisType');
  return value !== undefined && ANALYSIS_TYPES.includes(value) ? (value as AnalysisType) : undefined;
}

/** The report-type entry the document's reportType names, for its analysisType. */
export function reportTypeEntryOf(root: Node | undefined, catalogs: Catalogs): ReportTypeEntry | undefined {
  const analysisType = analysisTypeOf(root);
  const key = topLevelString(root, 'reportType');
  return analysisType && key !== undefined ? catalogs.reportTypes[analysisType].find((entry) => entry.key === key) : undefined;
}

/** An entry in words, for a completion's documentation or a hover. */
export function describeEntry(entry: ReportTypeEntry): string {
  return [
    `**${entry.key}**: ${entry.label.en} (es: ${entry.label.es})`,
    `reportCategory: ${entry.reportCategory}; reportTypeId: ${entry.id}`,
    entry.statistics.length > 0 ? `statistics: ${entry.statistics.join(', ')}` : 'statistics: none listed',
  ].join('\n\n');
}
