import type { Node } from 'jsonc-parser';
import {
  bodyRuleMessages,
  checkTemplateDocument,
  formulaRulesOf,
  MAX_BODY_BYTES,
  nameClashIssue,
  type Catalogs,
  type ValidationIssue,
} from '../contract/index.js';
import { checkFormula } from '../formula/check.js';
import type { Diagnostic as FormulaDiagnostic } from '../formula/diagnostics.js';
import { layoutPage } from '../preview/page.js';
import { nodeAtPath, parseJsonText, spanInString, spanOfPath, type Span } from './json-text.js';

export type Severity = 'error' | 'warning';

/** One thing to show in the editor: what the CLI would say, where it is in the text. */
export interface Finding extends Span {
  severity: Severity;
  message: string;
  /** The issue's path, as `templates validate` and the service name it; none for JSON syntax. */
  path?: string;
  /** The formula engine's diagnostic, for a formula issue (its code and suggestion). */
  formula?: FormulaDiagnostic;
  /** Another place the finding is about (the other element of an overlap). */
  related?: Span & { message: string };
}

/** What a template is checked against besides its own text. */
export interface TemplateContext {
  catalogs: Catalogs;
  /** The other files of the folder that hold this name (none when the document is not in a folder). */
  filesNamed?: (name: string) => readonly string[];
}

/** A template document read: its tree, its value when it is JSON, and what is wrong with it. */
export interface TemplateAnalysis {
  text: string;
  root: Node | undefined;
  /** The parsed document; `undefined` when the text is not JSON. */
  document?: unknown;
  findings: Finding[];
}

/**
 * Past this many characters a text is not parsed at all: it is far over the body limit, and
 * holding its tree would cost memory without telling more than that one finding.
 */
const MAX_PARSED_LENGTH = 4 * MAX_BODY_BYTES;

/**
 * A template's findings, as `templates validate --unique-names` reports them (the same rules,
 * from contract/template-rules.ts, the same paths and words), each on its range; then the
 * overlaps `templates preview` reports, as warnings.
 */
export function analyseTemplate(text: string, context: TemplateContext): TemplateAnalysis {
  if (text.length > MAX_PARSED_LENGTH) {
    return { text, root: undefined, findings: [{ offset: 0, length: 1, severity: 'error', path: '', message: bodyRuleMessages.tooLarge }] };
  }
  // The service reads past a byte-order mark; so does this (same length, so offsets hold).
  const parsed = parseJsonText(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);
  if (parsed.syntax || !parsed.root) {
    const syntax = parsed.syntax ?? { offset: 0, length: 1, reason: 'value expected' };
    return { text, root: parsed.root, findings: [{ offset: syntax.offset, length: syntax.length, severity: 'error', message: `not valid JSON: ${syntax.reason}` }] };
  }
  const root = parsed.root;
  const document: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const check = checkTemplateDocument(document, context.catalogs);
  const issues = check.success ? [] : [...check.issues];
  issues.push(...nameClashes(document, context));
  const findings = issues.flatMap((issue) => locate(issue, text, root, document, context.catalogs));
  if (check.success) findings.push(...overlapFindings(document, root));
  return { text, root, document, findings };
}

function nameClashes(document: unknown, context: TemplateContext): ValidationIssue[] {
  const name = isRecord(document) ? document.name : undefined;
  if (typeof name !== 'string' || !context.filesNamed) return [];
  return context.filesNamed(name).map((file) => nameClashIssue(name, file));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key, not a value, is what an unknown field's or a badly named key's issue is about. */
const aboutKey = (issue: ValidationIssue) => issue.message.startsWith('Unknown field ') || issue.message.includes(': the name contains ');

/** An issue on its range; a formula issue inside the formula's string, on the span the parser names. */
function locate(issue: ValidationIssue, text: string, root: Node, document: unknown, catalogs: Catalogs): Finding[] {
  const finding: Finding = { ...spanOfPath(root, issue.path, aboutKey(issue)), severity: 'error', message: issue.message, path: issue.path };
  if (issue.path !== 'formula' || !isRecord(document) || typeof document.formula !== 'string') return [finding];
  const formulaDiagnostic = formulaErrorOf(issue, document.formula, catalogs);
  const { node } = nodeAtPath(root, 'formula');
  if (!formulaDiagnostic || node.type !== 'string') return [finding];
  return [{ ...finding, ...spanInString(text, node, formulaDiagnostic), formula: formulaDiagnostic }];
}

/** The parser's diagnostic behind a `formula: … (at offset N)` issue. */
function formulaErrorOf(issue: ValidationIssue, formula: string, catalogs: Catalogs): FormulaDiagnostic | undefined {
  const errors = checkFormula(formula, formulaRulesOf(catalogs.vegetationIndexDefaults)).errors;
  return errors.find((error) => issue.message === `formula: ${error.message} (at offset ${error.offset})`);
}

/** The overlaps `templates preview` lists, per orientation the template has, on the first element. */
function overlapFindings(document: unknown, root: Node): Finding[] {
  const layouts = isRecord(document) && isRecord(document.layouts) ? document.layouts : {};
  return (['portrait', 'landscape'] as const)
    .filter((orientation) => layouts[orientation] !== undefined)
    .flatMap((orientation) => layoutPage(document, { orientation }).overlaps)
    .map((overlap) => ({
      ...spanOfPath(root, `${overlap.path}.type`),
      severity: 'warning' as const,
      message: overlap.message,
      path: overlap.path,
      related: { ...spanOfPath(root, `${overlap.otherPath}.type`), message: 'the other element' },
    }));
}
