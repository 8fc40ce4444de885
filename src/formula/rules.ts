import { formulaFunctions } from './functions.js';

/** The rules a formula is checked against. Data, not code: a client can check against the
 * rules a server publishes in its vegetation-index defaults. */
export interface FormulaRules {
  allowedBands: readonly string[];
  allowedScalars: readonly string[];
  allowedFunctions: readonly string[];
  divisionRequiresEps: boolean;
}

export const MAX_FORMULA_LENGTH = 2000;

export const defaultFormulaRules: FormulaRules = {
  allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
  allowedScalars: ['eps', 'L'],
  allowedFunctions: formulaFunctions.map((fn) => fn.name),
  divisionRequiresEps: true,
};
