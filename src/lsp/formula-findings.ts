import { checkFormula } from '../formula/check.js';
import { formulaLines } from '../formula/formula-file.js';
import type { FormulaRules } from '../formula/rules.js';
import type { Finding } from './template-findings.js';

/**
 * A formula file's findings (`formulas/*.txt`: one formula a line, # comments), each on the
 * span the parser names, in the words of `formula check --file`.
 */
export function formulaFileFindings(text: string, rules: FormulaRules): Finding[] {
  return formulaLines(text).flatMap(({ offset, formula }) =>
    checkFormula(formula, rules).errors.map((error) => ({
      offset: offset + error.offset,
      length: Math.max(error.length, 1),
      severity: 'error' as const,
      message: error.suggestion ? `${error.message} (${error.suggestion})` : error.message,
      formula: error,
    })),
  );
}
