/** A formula of a formula file, with its 1-based line and where that line starts in the text. */
export interface FormulaLine {
  line: number;
  /** Offset of the line's first character in the file's text. */
  offset: number;
  formula: string;
}

/**
 * The formulas of a formula file (`formulas/*.txt`, `formula check --file`): one a line, a
 * final CR dropped, blank lines and lines starting with # skipped.
 */
export function formulaLines(text: string): FormulaLine[] {
  const lines: FormulaLine[] = [];
  let offset = 0;
  text.split('\n').forEach((raw, index) => {
    const formula = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (formula.trim() !== '' && !formula.trimStart().startsWith('#')) lines.push({ line: index + 1, offset, formula });
    offset += raw.length + 1;
  });
  return lines;
}
