import type { Node } from 'jsonc-parser';
import type { Catalogs, ReportTypeEntry } from '../contract/index.js';
import { closestMatch } from '../contract/closest-match.js';
import { analysisTypeOf, reportTypeEntryOf } from './catalog-lookups.js';
import { nodeAtPath, type Span } from './json-text.js';
import type { Finding, TemplateAnalysis } from './template-findings.js';

export interface TextEdit extends Span {
  newText: string;
}

export interface CodeAction {
  title: string;
  /** The finding it fixes, when it fixes one. */
  finding?: Finding;
  edits: TextEdit[];
  preferred: boolean;
}

const overlapsRange = (span: Span, range: Span) => span.offset <= range.offset + range.length && range.offset <= span.offset + span.length;

/**
 * Fixes for what is found in `range`: the did-you-mean the CLI hints (a report type, a
 * statistic, a formula's band), and reportTypeId and reportCategory filled from the reportType.
 */
export function templateCodeActions(analysis: TemplateAnalysis, range: Span, catalogs: Catalogs): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const finding of analysis.findings.filter((candidate) => overlapsRange(candidate, range))) {
    const fix = didYouMeanFix(analysis, finding, catalogs);
    if (fix) actions.push(fix);
  }
  const fill = fillFromReportType(analysis, catalogs);
  const about = analysis.findings.find((finding) => finding.path === 'reportTypeId' || finding.path === 'reportCategory' || finding.path === '');
  if (fill && (overlapsRange(fillSpan(analysis.root!), range) || (about && overlapsRange(about, range)))) actions.push(fill);
  return actions;
}

function didYouMeanFix(analysis: TemplateAnalysis, finding: Finding, catalogs: Catalogs): CodeAction | undefined {
  const { root, text } = analysis;
  const analysisType = analysisTypeOf(root);
  if (finding.formula?.code === 'unknown-identifier') {
    const guess = /did you mean `([^`]+)`\?/.exec(finding.formula.suggestion ?? '')?.[1];
    return guess ? { title: `Change to ${guess}`, finding, edits: [{ ...finding, newText: guess }], preferred: true } : undefined;
  }
  const written = root && finding.path !== undefined ? nodeAtPath(root, finding.path) : undefined;
  if (!analysisType || !written?.complete || written.node.type !== 'string') return undefined;
  const value = written.node.value as string;
  if (finding.path === 'reportType') {
    const guess = closestMatch(value, catalogs.reportTypes[analysisType].map((entry) => entry.key));
    const entry = catalogs.reportTypes[analysisType].find((candidate) => candidate.key === guess);
    if (!entry) return undefined;
    const edits = [{ offset: written.node.offset, length: written.node.length, newText: JSON.stringify(entry.key) }, ...entryEdits(root!, text, entry)];
    return { title: `Change to "${entry.key}" (${entry.label.en})`, finding, edits, preferred: true };
  }
  if (/^selectedStatistics\.\d+$/.test(finding.path!)) {
    const guess = closestMatch(value, catalogs.statistics[analysisType]);
    if (!guess) return undefined;
    return { title: `Change to "${guess}"`, finding, edits: [{ offset: written.node.offset, length: written.node.length, newText: JSON.stringify(guess) }], preferred: true };
  }
  return undefined;
}

/** reportTypeId and reportCategory as the reportType's entry has them, when either differs. */
function fillFromReportType(analysis: TemplateAnalysis, catalogs: Catalogs): CodeAction | undefined {
  const entry = reportTypeEntryOf(analysis.root, catalogs);
  if (!entry) return undefined;
  const edits = entryEdits(analysis.root!, analysis.text, entry);
  if (edits.length === 0) return undefined;
  return { title: `Fill reportTypeId and reportCategory from "${entry.key}"`, edits, preferred: false };
}

/** Where the fill is offered: on the reportType property. */
function fillSpan(root: Node): Span {
  const { property } = nodeAtPath(root, 'reportType');
  return property ? { offset: property.offset, length: property.length } : { offset: root.offset, length: 1 };
}

/** Edits that make reportTypeId and reportCategory the entry's: replaced where present, added after reportType where not. */
function entryEdits(root: Node, text: string, entry: ReportTypeEntry): TextEdit[] {
  const edits: TextEdit[] = [];
  const missing: string[] = [];
  for (const [field, value] of [['reportTypeId', entry.id], ['reportCategory', entry.reportCategory]] as const) {
    const found = nodeAtPath(root, field);
    if (!found.complete) missing.push(`${JSON.stringify(field)}: ${JSON.stringify(value)}`);
    else if (found.node.value !== value) edits.push({ offset: found.node.offset, length: found.node.length, newText: JSON.stringify(value) });
  }
  const { property } = nodeAtPath(root, 'reportType');
  if (missing.length > 0 && property) {
    const lineStart = text.lastIndexOf('\n', property.offset) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    edits.push({ offset: property.offset + property.length, length: 0, newText: missing.map((line) => `,\n${indent}${line}`).join('') });
  }
  return edits;
}
