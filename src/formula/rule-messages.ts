import type { Binary, Call, Identifier } from './ast.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { nearestName } from './did-you-mean.js';
import { print } from './print.js';

// The rule breaches checkFormula reports, worded for a person: what is wrong with a name,
// a call or a division, and what would be accepted instead.

/** What the rules allow, as the messages need it. */
export interface AllowedNames {
  allowedBands: readonly string[];
  allowedScalars: readonly string[];
  allowedFunctions: readonly string[];
  kindOf(name: string): 'band' | 'scalar' | 'function' | undefined;
}

const COUNTED = ['no arguments', 'one argument', 'two arguments', 'three arguments'];

function argumentCount(count: number): string {
  return COUNTED[count] ?? `${count} arguments`;
}

/** `sqrt(R)`: a call of `name` with a band for each argument. */
function exampleCall(name: string, arity: number, allowed: AllowedNames): string {
  return `${name}(${new Array<string>(arity).fill(allowed.allowedBands[0] ?? 'x').join(', ')})`;
}

export function takesExactly(callee: string, arity: number, got: number): string {
  return `\`${callee}\` takes exactly ${argumentCount(arity)}; got ${got}`;
}

export function tooLong(length: number, max: number): Diagnostic {
  return diagnostic('too-long', `formula is ${length} characters; the maximum is ${max}`, max, length - max, 'shorten the formula');
}

export function functionWithoutCall(node: Identifier, arity: number, allowed: AllowedNames): Diagnostic {
  return diagnostic(
    'function-without-call',
    `\`${node.name}\` is a function; call it with ${argumentCount(arity)}`,
    node.start,
    node.end - node.start,
    `e.g. ${exampleCall(node.name, arity, allowed)}`,
  );
}

export function unknownIdentifier(node: Identifier, allowed: AllowedNames): Diagnostic {
  const { name } = node;
  const length = node.end - node.start;
  const { allowedBands, allowedScalars } = allowed;
  const nearest = nearestName(name, [...allowedBands, ...allowedScalars]);
  if (nearest !== undefined) {
    const what = allowed.kindOf(nearest) ?? 'name';
    return diagnostic('unknown-identifier', `unknown ${what} \`${name}\``, node.start, length, `did you mean \`${nearest}\`?`);
  }
  const choices: string[] = [];
  if (allowedBands.length > 0) choices.push(`a band (${allowedBands.join(', ')})`);
  if (allowedScalars.length > 0) choices.push(`a scalar (${allowedScalars.join(', ')})`);
  return diagnostic(
    'unknown-identifier',
    `unknown name \`${name}\``,
    node.start,
    length,
    choices.length > 0 ? `use ${choices.join(' or ')}` : undefined,
  );
}

export function wrongArgumentCount(node: Call, arity: number, allowed: AllowedNames): Diagnostic {
  const { callee } = node;
  return diagnostic(
    'wrong-argument-count',
    takesExactly(callee, arity, node.args.length),
    node.start,
    node.end - node.start,
    node.args.length === 0 ? `e.g. ${exampleCall(callee, arity, allowed)}` : undefined,
  );
}

/** `R(G)`: a band or scalar written as if it were a function. */
export function notAFunction(node: Call, kind: 'band' | 'scalar'): Diagnostic {
  const { callee } = node;
  const [only] = node.args;
  return diagnostic(
    'not-a-function',
    `\`${callee}\` is a ${kind}, not a function`,
    node.calleeStart,
    node.calleeEnd - node.calleeStart,
    node.args.length === 1 && only !== undefined
      ? `use \`*\` for multiplication: ${callee} * (${print(only)})`
      : 'use `*` for multiplication',
  );
}

export function unknownFunction(node: Call, allowed: AllowedNames): Diagnostic {
  const { callee } = node;
  const functions = allowed.allowedFunctions;
  const nearest = nearestName(callee, functions);
  return diagnostic(
    'unknown-function',
    functions.length > 0
      ? `unknown function \`${callee}\`; allowed: ${functions.join(', ')}`
      : `unknown function \`${callee}\`; no functions are allowed`,
    node.calleeStart,
    node.calleeEnd - node.calleeStart,
    nearest === undefined ? undefined : `did you mean \`${nearest}\`?`,
  );
}

const MAX_SHOWN_DIVISION = 60;

/**
 * `the divisor of \`eps / NIR\` must include eps`: the message names the whole division, so
 * a reader sees that eps elsewhere in it (the numerator) does not count. A long numerator
 * gives way to `…` first, then the divisor is cut.
 */
export function divisionWithoutEps(division: Binary, source: string): Diagnostic {
  const divisor = division.right;
  const text = print(divisor);
  const divisorShown = divisor.kind === 'binary' ? `(${text})` : text;
  // The source span bounds the printed length, so a huge numerator is never printed.
  const whole = division.end - division.start <= 4 * MAX_SHOWN_DIVISION ? print(division) : undefined;
  const shown =
    whole !== undefined && whole.length <= MAX_SHOWN_DIVISION
      ? whole
      : `… / ${divisorShown.length > MAX_SHOWN_DIVISION - 4 ? `${divisorShown.slice(0, MAX_SHOWN_DIVISION - 5)}…` : divisorShown}`;
  const span = withEnclosingParentheses(divisor.start, divisor.end, source);
  return diagnostic(
    'division-without-eps',
    `the divisor of \`${shown}\` must include eps`,
    span.start,
    span.end - span.start,
    `add eps to the divisor: (${text} + eps)`,
  );
}

/**
 * Widens a divisor's span over the parentheses written around it, so the diagnostic
 * underlines `(NIR + R)` rather than `NIR + R`. Only whitespace and `(` can stand between
 * `/` and its divisor, and each such `(` is closed right after the divisor.
 */
function withEnclosingParentheses(start: number, end: number, source: string): { start: number; end: number } {
  for (;;) {
    let before = start - 1;
    while (before >= 0 && isWhitespace(source.charCodeAt(before))) before--;
    if (source.charCodeAt(before) !== 40) return { start, end };
    let after = end;
    while (after < source.length && isWhitespace(source.charCodeAt(after))) after++;
    if (source.charCodeAt(after) !== 41) return { start, end };
    start = before;
    end = after + 1;
  }
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
