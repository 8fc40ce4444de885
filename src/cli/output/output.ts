import type { CliDeps } from '../cmdutil/context.js';
import { CliError, ExitCode } from '../cmdutil/errors.js';
import { writeLine } from '../iostreams/io.js';
import { jsonForTerminal, escapeControls } from '../iostreams/sanitize.js';
import type { Style } from '../iostreams/style.js';

/** The service's JSON: exactly as it came when piped; indented, C1 escaped, on a terminal. */
export function printJson(deps: CliDeps, value: unknown): void {
  writeLine(deps.io.stdout, jsonText(deps, value, deps.io.isStdoutTTY() ? 2 : undefined));
}

/** One JSON value for stdout; on a terminal, with the control characters JSON leaves raw escaped. */
export function jsonText(deps: CliDeps, value: unknown, indent?: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, indent);
  } catch (error) {
    // A value nested some thousands of levels deep (a hostile service) runs JSON.stringify out of stack.
    if (error instanceof RangeError) throw new CliError('the JSON is nested too deep to print (thousands of levels)', ExitCode.failed, undefined, { code: 'TOO_DEEP' });
    throw error;
  }
  return deps.io.isStdoutTTY() ? jsonForTerminal(text) : text;
}

/** Text and how to paint it. The text is made visible (it may come from the service), then painted. */
export type Segment = readonly [text: string, paint?: (text: string) => string];

export function paint(segments: readonly Segment[]): string {
  return segments.map(([text, paintText]) => (paintText && text !== '' ? paintText(escapeControls(text)) : escapeControls(text))).join('');
}

/** A record as aligned `label  value` lines (templates get, queue-runs get, auth status …). */
export function printFields(deps: CliDeps, style: Style, fields: [label: string, value: string | readonly Segment[]][], indent = ''): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  for (const [label, value] of fields) {
    writeLine(deps.io.stdout, `${indent}${style.dim(label.padEnd(width))}  ${paint(typeof value === 'string' ? [[value]] : value)}`);
  }
}

/** As many characters of an id as people need to tell items apart (and commands accept as a prefix). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * A column of the service's ids (every table shows them this way): short on a terminal so
 * names stay readable at 80 columns, whole with --wide and whenever piped (scripts need the
 * real id). `-` where a row has none.
 */
export function idColumn<T>(deps: CliDeps, wide: boolean, id: (row: T) => string | null | undefined, header = 'ID'): Column<T> {
  const whole = wide || !deps.io.isStdoutTTY();
  const text = (row: T) => {
    const value = id(row);
    if (value === null || value === undefined) return '-';
    return whole ? value : shortId(value);
  };
  return { header, keep: true, value: text, color: (value, _row, style) => style.cyan(value) };
}

export interface Column<T> {
  header: string;
  /** Never shortened to fit the terminal (ids: a cut id is useless). */
  keep?: boolean;
  /** Shortened only once no other column can give more (names are what people read). */
  readable?: boolean;
  value(row: T): string;
  color?(text: string, row: T, style: Style): string;
}

/** One tab-separated line; control characters made visible, tabs and newlines spaces. */
export function tsvRow<T>(columns: Column<T>[], row: T): string {
  return columns.map((column) => escapeControls(column.value(row))).join('\t');
}

/** How narrow a readable column (a name) gets before the short columns give way. */
const READABLE_CAP = 40;

/**
 * A bordered table sized to the terminal for people; tab-separated values without a header
 * when piped, so scripts can cut columns.
 */
export async function printTable<T>(deps: CliDeps, style: Style, columns: Column<T>[], rows: T[]): Promise<void> {
  // Cells come from the service: control characters made visible, tabs and newlines spaces.
  if (!deps.io.isStdoutTTY()) {
    for (const row of rows) writeLine(deps.io.stdout, tsvRow(columns, row));
    return;
  }
  const cells = rows.map((row) => columns.map((column) => escapeControls(column.value(row))));
  const { default: Table } = await import('cli-table3');
  const width = deps.io.terminalWidth();
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((values) => values[index]!.length)) + 2);
  // Borders take one column each plus one. Shorten the widest column that may be shortened
  // until the table fits: a long name first down to READABLE_CAP (a name of 200 characters
  // must not cut every short column), then the other columns, then names further; ids never.
  let excess = widths.reduce((sum, size) => sum + size, 0) + columns.length + 1 - width;
  const widestOf = (readable: boolean, floor = 8) => {
    let widest = -1;
    columns.forEach((column, index) => {
      if (!column.keep && (column.readable === true) === readable && widths[index]! > floor && (widest < 0 || widths[index]! > widths[widest]!)) widest = index;
    });
    return widest;
  };
  while (excess > 0) {
    let widest = widestOf(true, READABLE_CAP);
    if (widest < 0) widest = widestOf(false);
    if (widest < 0) widest = widestOf(true);
    if (widest < 0) break;
    widths[widest]! -= 1;
    excess -= 1;
  }
  const table = new Table({
    head: columns.map((column) => style.bold(column.header)),
    colWidths: widths,
    wordWrap: false,
    truncate: '…',
    // No rule between rows: a list reads as a list.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: [], border: [] },
  });
  rows.forEach((row, at) => {
    table.push(columns.map((column, index) => (column.color ? column.color(cells[at]![index]!, row, style) : cells[at]![index]!)));
  });
  writeLine(deps.io.stdout, table.toString());
}

/** "showing 20 of 143" goes to stderr: it is advice, not data. */
export function pageFooter(deps: CliDeps, shown: number, page: number, total: number): void {
  if (total > shown && !(page > 1 && shown === 0)) {
    writeLine(deps.io.stderr, `showing ${shown} of ${total} (page ${page}); use --all or --page ${page + 1}`);
  } else if (shown === 0 && total > 0) {
    writeLine(deps.io.stderr, `page ${page} is past the end (${total} in all)`);
  }
}

export function statusColor(status: string, style: Style): (text: string) => string {
  switch (status) {
    case 'completed':
      return style.green;
    case 'failed':
    case 'cancelled':
      return style.red;
    case 'running':
    case 'claimed':
      return style.cyan;
    case 'skipped':
      return style.dim;
    default:
      return style.yellow;
  }
}

/** Relative times for people on a terminal, ISO 8601 when piped. */
export function formatTime(iso: string | null | undefined, deps: CliDeps): string {
  if (!iso) return '-';
  if (!deps.io.isStdoutTTY()) return iso;
  const seconds = Math.round((deps.clock.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  const ago = (value: number, unit: string) => `${value}${unit} ago`;
  if (seconds < 0) return iso;
  if (seconds < 60) return ago(seconds, 's');
  if (seconds < 3600) return ago(Math.floor(seconds / 60), 'm');
  if (seconds < 86_400) return ago(Math.floor(seconds / 3600), 'h');
  if (seconds < 30 * 86_400) return ago(Math.floor(seconds / 86_400), 'd');
  return iso.slice(0, 10);
}
