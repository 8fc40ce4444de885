import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerFormulaCheck } from './check.js';
import { registerFormulaEval } from './eval.js';
import { registerFormulaValidate } from './validate.js';

export function registerFormulaCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const formula = program
    .command('formula')
    .description('Check, evaluate and validate Custom_Index formulas');
  registerFormulaCheck(formula, deps, wrap);
  registerFormulaEval(formula, deps, wrap);
  registerFormulaValidate(formula, deps, wrap);
}
