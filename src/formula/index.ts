// The formula engine: pure, no dependencies. checkFormula is the front door; parse, print,
// evaluate and scan are there for tools that need the parts.
export type { Binary, BinaryOperator, Call, Identifier, Node, NumberLiteral, Span, Unary, UnaryOperator } from './ast.js';
export { checkFormula, type FormulaCheck } from './check.js';
export type { Diagnostic, DiagnosticCode } from './diagnostics.js';
export { didYouMean, editDistance, nearestName, type NearnessPolicy } from './did-you-mean.js';
export { evaluate, FormulaEvaluationError } from './evaluate.js';
export { formulaFunction, formulaFunctions, type FormulaFunction } from './functions.js';
export { MAX_NESTING_DEPTH, parse, type ParseResult } from './parser.js';
export { print } from './print.js';
export { defaultFormulaRules, MAX_FORMULA_LENGTH, type FormulaRules } from './rules.js';
export { scan } from './lexer.js';
export type { Token, TokenKind } from './tokens.js';
export { formulaLines, type FormulaLine } from './formula-file.js';
