import type { Node } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { Lexer } from './lexer.js';
import { parseFrom } from './parser.js';
import { ruleBreaches } from './rule-check.js';
import { tooLong } from './rule-messages.js';
import { defaultFormulaRules, MAX_FORMULA_LENGTH, type FormulaRules } from './rules.js';

export interface FormulaCheck {
  valid: boolean;
  /** The name `L` appears in the formula, even when the formula is invalid. */
  usesL: boolean;
  /** Every problem found, in source order. Syntax errors stop the check against the rules. */
  errors: Diagnostic[];
  /** The tree whenever the formula parses, even if it breaks the rules; null otherwise. */
  ast: Node | null;
}

/** Parses `source` and checks it against `rules`. Never throws. */
export function checkFormula(source: string, rules: FormulaRules = defaultFormulaRules): FormulaCheck {
  const lexer = new Lexer(source);
  if (source.length > MAX_FORMULA_LENGTH) {
    lexer.drain();
    return { valid: false, usesL: lexer.sawL, errors: [tooLong(source.length, MAX_FORMULA_LENGTH)], ast: null };
  }
  const { ast, diagnostics } = parseFrom(lexer);
  // A syntax error stops the parser early; `usesL` still covers the whole formula.
  lexer.drain();
  const usesL = lexer.sawL;
  if (ast === null) return { valid: false, usesL, errors: diagnostics, ast: null };
  const errors = ruleBreaches(ast, source, rules);
  return { valid: errors.length === 0, usesL, errors, ast };
}
