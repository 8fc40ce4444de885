/** Codes a formula diagnostic can carry; stable, so clients can branch on them. */
export type DiagnosticCode =
  | 'empty'
  | 'too-long'
  | 'too-deep'
  | 'unexpected-character'
  | 'unexpected-token'
  | 'power-operator'
  | 'unbalanced-parenthesis'
  | 'missing-operand'
  | 'missing-operator'
  | 'unknown-identifier'
  | 'unknown-function'
  | 'not-a-function'
  | 'function-without-call'
  | 'wrong-argument-count'
  | 'division-without-eps';

/**
 * One problem in a formula. `offset` and `length` are in UTF-16 code units (JS string
 * indices) and always satisfy `offset + length <= source.length`; `length` is 0 only for an
 * empty formula.
 */
export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  offset: number;
  length: number;
  /** What would be accepted instead, phrased for a person. */
  suggestion?: string;
}

export function diagnostic(
  code: DiagnosticCode,
  message: string,
  offset: number,
  length: number,
  suggestion?: string,
): Diagnostic {
  return suggestion === undefined ? { code, message, offset, length } : { code, message, offset, length, suggestion };
}
