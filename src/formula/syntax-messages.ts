import { diagnostic, type Diagnostic } from './diagnostics.js';
import type { Token } from './tokens.js';

// The syntax errors the parser reports, worded for a person. The parser decides where a
// formula goes wrong; these say what was found there and what would be accepted.

// Look-alikes of the operators; scanned as errors, reported, then read as the operator so
// the rest of the formula is still checked.
export const MINUS_LIKE: ReadonlySet<string> = new Set(['\u2212', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\ufe63', '\uff0d']);
export const TIMES_LIKE: ReadonlySet<string> = new Set(['\u00d7', '\u00b7', '\u2219', '\u22c5', '\u2217']);
export const DIVIDE_LIKE: ReadonlySet<string> = new Set(['\u00f7', '\u2215', '\u2044']);

const POWER_SUGGESTION = 'use multiplication, e.g. NIR * NIR';

/** Where an expression ended and something else stood: the formula's end, `)` or a call's `)`. */
export type ExpressionEnd = 'formula' | 'parentheses' | 'call';

export function emptyFormula(length: number): Diagnostic {
  return diagnostic('empty', 'formula is empty', 0, length, 'write an expression, e.g. (NIR - R) / (NIR + R + eps)');
}

export function nestedTooDeep(open: number, maxDepth: number): Diagnostic {
  return diagnostic('too-deep', `parentheses nest more than ${maxDepth} levels deep`, open, 1);
}

export function tooDeepToParse(length: number): Diagnostic {
  return diagnostic('too-deep', 'formula nests too deeply to parse', 0, length);
}

export function emptyParentheses(open: number, end: number): Diagnostic {
  return diagnostic('missing-operand', 'empty parentheses; expected an expression inside', open, end - open);
}

export function neverClosed(open: number): Diagnostic {
  return diagnostic('unbalanced-parenthesis', 'this `(` is never closed', open, 1, 'add a matching `)`');
}

export function powerOperator(token: Token): Diagnostic {
  return diagnostic('power-operator', 'power operator is not supported', token.start, token.end - token.start, POWER_SUGGESTION);
}

/**
 * `token` cannot continue the expression where one ends. `next` reads the token after it,
 * to recognise `2,5` written for `2.5`.
 */
export function unexpectedToken(token: Token, context: ExpressionEnd, previous: Token | undefined, next: () => Token): Diagnostic {
  const length = token.end - token.start;
  if (token.kind === 'error') return unexpectedCharacter(token);
  if (token.kind === 'rparen') {
    return diagnostic(
      'unbalanced-parenthesis',
      'this `)` has no matching `(`',
      token.start,
      length,
      'remove it, or add a matching `(` before it',
    );
  }
  if (token.kind === 'comma') {
    const after = next();
    const decimal =
      previous?.kind === 'number' && after.kind === 'number' && previous.end === token.start && after.start === token.end;
    return diagnostic(
      'unexpected-token',
      context === 'call' ? 'unexpected `,`' : 'unexpected `,` outside a function call',
      token.start,
      length,
      decimal ? `use \`.\` as the decimal separator: \`${previous.text}.${after.text}\`` : undefined,
    );
  }
  return diagnostic('unexpected-token', `unexpected \`${token.text}\``, token.start, length);
}

/** An operand was due and `token` came instead. */
export function missingOperand(token: Token, previous: Token | undefined): Diagnostic {
  if (token.kind === 'error') return unexpectedCharacter(token);
  if (token.kind === 'eof') {
    if (previous === undefined) return diagnostic('missing-operand', 'expected an operand', token.start, 0);
    return diagnostic(
      'missing-operand',
      `expected an operand after \`${previous.text}\``,
      previous.start,
      previous.end - previous.start,
    );
  }
  const message =
    previous === undefined
      ? `expected an operand before \`${token.text}\``
      : `expected an operand after \`${previous.text}\`, found \`${token.text}\``;
  return diagnostic('missing-operand', message, token.start, token.end - token.start);
}

/** Two operands side by side (`2NIR`, `(R)(G)`). */
export function missingOperator(token: Token, previous: Token | undefined): Diagnostic {
  const bothSimple =
    previous !== undefined &&
    (previous.kind === 'number' || previous.kind === 'identifier') &&
    (token.kind === 'number' || token.kind === 'identifier');
  return diagnostic(
    'missing-operator',
    'missing operator; use `*` for multiplication',
    token.start,
    token.end - token.start,
    bothSimple ? `write \`${previous.text} * ${token.text}\`` : `insert \`*\` before \`${token.text}\``,
  );
}

export function unexpectedCharacter(token: Token): Diagnostic {
  const character = token.text;
  return diagnostic(
    'unexpected-character',
    `unexpected character ${displayCharacter(character)}`,
    token.start,
    token.end - token.start,
    characterSuggestion(character),
  );
}

function displayCharacter(character: string): string {
  if (/^[\p{C}\p{Z}]$/u.test(character)) {
    const codePoint = character.codePointAt(0) ?? 0;
    return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `\`${character}\``;
}

function characterSuggestion(character: string): string | undefined {
  if (MINUS_LIKE.has(character)) return 'use the ASCII minus `-`';
  if (TIMES_LIKE.has(character)) return 'use `*` for multiplication';
  if (DIVIDE_LIKE.has(character)) return 'use `/` for division';
  if (character === '\u00b2' || character === '\u00b3') return `the power operator is not supported; ${POWER_SUGGESTION}`;
  if ('[]{}'.includes(character)) return 'use parentheses `(` and `)` to group';
  if (character === '"' || character === "'" || character === '`') return 'write names without quotes, e.g. NIR';
  if (/^[\p{Z}\v\f\u200b\u2060\ufeff]$/u.test(character)) return 'use a plain space';
  if (/^\p{L}$/u.test(character)) return 'names use ASCII letters, digits and `_`';
  return undefined;
}
