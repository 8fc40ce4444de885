import { findNodeAtOffset, getNodePath, type Node } from 'jsonc-parser';
import { formulaRulesOf, type Catalogs } from '../contract/index.js';
import { checkFormula } from '../formula/check.js';
import { scan } from '../formula/lexer.js';
import { analysisTypeOf, describeEntry } from './catalog-lookups.js';
import type { Span } from './json-text.js';
import { schemaAt } from './template-schema.js';
import type { TemplateAnalysis } from './template-findings.js';

export interface Hover extends Span {
  /** Markdown. */
  contents: string;
}

/**
 * What the text at `offset` means: a field's description (the schema's words), a report
 * type's catalog entry, a statistic's analysis, a formula's bands and whether it uses L.
 */
export function templateHover(analysis: TemplateAnalysis, offset: number, catalogs: Catalogs): Hover | undefined {
  const { root } = analysis;
  const node = root ? findNodeAtOffset(root, offset) : undefined;
  if (!root || !node) return undefined;
  const span = { offset: node.offset, length: node.length };
  const path = getNodePath(node);
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  if (isKey) {
    const description = schemaAt(path)?.description;
    return description ? { ...span, contents: `**${String(path.at(-1))}**: ${description}` } : undefined;
  }
  const contents = valueHover(root, node, path, catalogs);
  return contents ? { ...span, contents } : undefined;
}

function valueHover(root: Node, node: Node, path: Array<string | number>, catalogs: Catalogs): string | undefined {
  if (node.type !== 'string') return undefined;
  const value = node.value as string;
  const analysisType = analysisTypeOf(root);
  if (path.length === 1 && path[0] === 'reportType' && analysisType) {
    const entry = catalogs.reportTypes[analysisType].find((candidate) => candidate.key === value);
    return entry ? describeEntry(entry) : `not a ${analysisType} report type`;
  }
  if (path.length === 2 && path[0] === 'selectedStatistics' && analysisType) {
    const entries = catalogs.reportTypes[analysisType].filter((entry) => entry.statistics.includes(value)).map((entry) => entry.key);
    if (!catalogs.statistics[analysisType].includes(value)) return `not a ${analysisType} statistic`;
    return `a ${analysisType} statistic${entries.length > 0 ? `; listed by ${entries.join(', ')}` : ''}`;
  }
  if (path.length === 1 && path[0] === 'formula') return formulaHover(value, catalogs);
  return undefined;
}

function formulaHover(formula: string, catalogs: Catalogs): string {
  const rules = formulaRulesOf(catalogs.vegetationIndexDefaults);
  const check = checkFormula(formula, rules);
  const names = new Set(scan(formula).filter((token) => token.kind === 'identifier').map((token) => token.text));
  const bands = rules.allowedBands.filter((band) => names.has(band));
  return [
    `**formula**: ${check.valid ? 'valid' : `invalid (${check.errors.length} ${check.errors.length === 1 ? 'error' : 'errors'})`}`,
    `bands: ${bands.length > 0 ? bands.join(', ') : 'none'}`,
    `uses L: ${check.usesL ? 'yes (the template needs saviL)' : 'no'}`,
  ].join('\n\n');
}
