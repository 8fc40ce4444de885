import { escapeControls } from '../../iostreams/sanitize.js';
import type { Style } from '../../iostreams/style.js';

/** The shape `formula check --json` prints for each formula. */
export interface FormulaReport {
  formula: string;
  valid: boolean;
  usesL: boolean;
  errors: { message: string; offset: number; length: number; suggestion?: string }[];
}

const CONTEXT = 30;

/**
 * The formula with a caret line under the span. Long formulas are cut to a window around the
 * span; tabs and line breaks print as spaces so the carets line up.
 */
export function caretLines(formula: string, offset: number, length: number, width: number): [string, string] {
  const flat = formula.replace(/[\t\r\n]/g, ' ');
  let start = 0;
  let end = flat.length;
  if (flat.length > width) {
    start = Math.max(0, offset - CONTEXT);
    end = Math.min(flat.length, offset + Math.max(length, 1) + CONTEXT);
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < flat.length ? '…' : '';
  const text = prefix + flat.slice(start, end) + suffix;
  const caretStart = prefix.length + offset - start;
  const caretLength = Math.max(1, Math.min(length, end - offset));
  return [text, ' '.repeat(caretStart) + '^'.repeat(caretLength)];
}

export function renderReport(report: FormulaReport, style: Style, opts: { label?: string; width: number; symbols: boolean }): string {
  const lines: string[] = [];
  const label = opts.label ? `${opts.label}: ` : '';
  const usesL = `uses L: ${report.usesL ? 'yes' : 'no'}`;
  if (report.valid) {
    const mark = opts.symbols ? style.green('✓ ') : '';
    lines.push(`${label}${mark}valid (${usesL})`);
    return lines.join('\n');
  }
  const mark = opts.symbols ? style.red('✗ ') : '';
  const count = report.errors.length === 1 ? '1 error' : `${report.errors.length} errors`;
  lines.push(`${label}${mark}invalid: ${count} (${usesL})`);
  for (const error of report.errors) {
    const [text, carets] = caretLines(report.formula, error.offset, error.length, opts.width - 4);
    // Messages may be the service's (formula validate).
    lines.push(`    ${text}`, `    ${style.red(carets)}`, `  ${escapeControls(error.message)}`);
    if (error.suggestion) lines.push(`  ${style.cyan('hint:')} ${escapeControls(error.suggestion)}`);
  }
  return lines.join('\n');
}
