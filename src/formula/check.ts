import type { Binary, Call, Identifier, Node } from './ast.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { Lexer } from './lexer.js';
import { parseWithFacts, type ParseFacts } from './parser.js';
import { print } from './print.js';
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
    const tooLong = diagnostic(
      'too-long',
      `formula is ${source.length} characters; the maximum is ${MAX_FORMULA_LENGTH}`,
      MAX_FORMULA_LENGTH,
      source.length - MAX_FORMULA_LENGTH,
      'shorten the formula',
    );
    return { valid: false, usesL: lexer.sawL, errors: [tooLong], ast: null };
  }
  const parsed = parseWithFacts(lexer);
  // A syntax error stops the parser early; `usesL` still covers the whole formula.
  lexer.drain();
  const usesL = lexer.sawL;
  const { ast } = parsed;
  if (ast === null) return { valid: false, usesL, errors: parsed.diagnostics, ast: null };
  const errors = validate(parsed, source, compile(rules));
  return { valid: errors.length === 0, usesL, errors, ast };
}

type NameKind = 'band' | 'scalar' | 'function';

/** What each allowed name is; bands win over scalars over functions. */
class CompiledRules {
  private readonly names: string[] = [];
  private readonly kinds: NameKind[] = [];
  private readonly byName = new Map<string, NameKind>();

  constructor(readonly rules: FormulaRules) {
    for (const [list, kind] of [
      [rules.allowedBands, 'band'],
      [rules.allowedScalars, 'scalar'],
      [rules.allowedFunctions, 'function'],
    ] as const) {
      for (const name of list) {
        if (this.byName.has(name)) continue;
        this.byName.set(name, kind);
        this.names.push(name);
        this.kinds.push(kind);
      }
    }
  }

  kindOf(name: string): NameKind | undefined {
    // Names fresh from the source have no hash yet; comparing a few short strings is
    // cheaper than hashing each, and the usual catalogue has under ten names.
    if (this.names.length > 16) return this.byName.get(name);
    for (let i = 0; i < this.names.length; i++) if (this.names[i] === name) return this.kinds[i];
    return undefined;
  }
}

// Rules are data that rarely change: compile each rules object once (so a rules object is
// treated as immutable once checked against).
const compiled = new WeakMap<FormulaRules, CompiledRules>();
let lastCompiled: CompiledRules | undefined;

function compile(rules: FormulaRules): CompiledRules {
  if (lastCompiled?.rules === rules) return lastCompiled;
  let found = compiled.get(rules);
  if (found === undefined) {
    found = new CompiledRules(rules);
    compiled.set(rules, found);
  }
  lastCompiled = found;
  return found;
}

/** Checks names, calls and eps guards against the rules; every error, in source order. */
function validate(facts: ParseFacts, source: string, rules: CompiledRules): Diagnostic[] {
  const errors: Diagnostic[] = [];
  for (const identifier of facts.identifiers) checkIdentifier(identifier, rules, errors);
  for (const call of facts.calls) checkCall(call, rules, errors);
  if (rules.rules.divisionRequiresEps) {
    for (const division of facts.divisionsWithoutEps) errors.push(divisionWithoutEps(division, source));
  }
  if (errors.length > 1) errors.sort((a, b) => a.offset - b.offset);
  return errors;
}

function checkIdentifier(node: Identifier, rules: CompiledRules, errors: Diagnostic[]): void {
  const { name } = node;
  const kind = rules.kindOf(name);
  if (kind === 'band' || kind === 'scalar') return;
  const length = node.end - node.start;
  if (kind === 'function') {
    errors.push(
      diagnostic(
        'function-without-call',
        `\`${name}\` is a function; call it with one argument`,
        node.start,
        length,
        `e.g. ${name}(${rules.rules.allowedBands[0] ?? 'x'})`,
      ),
    );
    return;
  }
  const { allowedBands, allowedScalars } = rules.rules;
  const nearest = nearestName(name, [...allowedBands, ...allowedScalars]);
  if (nearest !== undefined) {
    const what = rules.kindOf(nearest) ?? 'name';
    errors.push(
      diagnostic('unknown-identifier', `unknown ${what} \`${name}\``, node.start, length, `did you mean \`${nearest}\`?`),
    );
    return;
  }
  const choices: string[] = [];
  if (allowedBands.length > 0) choices.push(`a band (${allowedBands.join(', ')})`);
  if (allowedScalars.length > 0) choices.push(`a scalar (${allowedScalars.join(', ')})`);
  errors.push(
    diagnostic(
      'unknown-identifier',
      `unknown name \`${name}\``,
      node.start,
      length,
      choices.length > 0 ? `use ${choices.join(' or ')}` : undefined,
    ),
  );
}

function checkCall(node: Call, rules: CompiledRules, errors: Diagnostic[]): void {
  const { callee } = node;
  const calleeLength = node.calleeEnd - node.calleeStart;
  const kind = rules.kindOf(callee);
  if (kind === 'function') {
    if (node.args.length !== 1) {
      errors.push(
        diagnostic(
          'wrong-argument-count',
          `\`${callee}\` takes exactly one argument; got ${node.args.length}`,
          node.start,
          node.end - node.start,
          node.args.length === 0 ? `e.g. ${callee}(${rules.rules.allowedBands[0] ?? 'x'})` : undefined,
        ),
      );
    }
    return;
  }
  if (kind !== undefined) {
    const [only] = node.args;
    errors.push(
      diagnostic(
        'not-a-function',
        `\`${callee}\` is a ${kind}, not a function`,
        node.calleeStart,
        calleeLength,
        node.args.length === 1 && only !== undefined
          ? `use \`*\` for multiplication: ${callee} * (${print(only)})`
          : 'use `*` for multiplication',
      ),
    );
    return;
  }
  const allowed = rules.rules.allowedFunctions;
  const nearest = nearestName(callee, allowed);
  errors.push(
    diagnostic(
      'unknown-function',
      allowed.length > 0
        ? `unknown function \`${callee}\`; allowed: ${allowed.join(', ')}`
        : `unknown function \`${callee}\`; no functions are allowed`,
      node.calleeStart,
      calleeLength,
      nearest === undefined ? undefined : `did you mean \`${nearest}\`?`,
    ),
  );
}

const MAX_SHOWN_DIVISOR = 60;

function divisionWithoutEps(division: Binary, source: string): Diagnostic {
  const divisor = division.right;
  const text = print(divisor);
  const shown = divisor.kind === 'binary' ? `(${text})` : text;
  const span = withEnclosingParentheses(divisor.start, divisor.end, source);
  return diagnostic(
    'division-without-eps',
    `division by \`${shown.length > MAX_SHOWN_DIVISOR ? `${shown.slice(0, MAX_SHOWN_DIVISOR - 1)}…` : shown}\` must include eps`,
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

/**
 * The allowed name a mistyped one most likely meant: a case-insensitive match first, else
 * the closest by Damerau-Levenshtein distance ≤ 2, as long as the edit changes at most half
 * of the longer name (so `T` does not suggest `R`).
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  for (const candidate of candidates) if (candidate.toLowerCase() === lower) return candidate;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance && distance * 2 <= Math.max(name.length, candidate.length)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const rows = new Array<number>((a.length + 1) * width);
  const at = (i: number, j: number): number => rows[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) rows[i * width] = i;
  for (let j = 0; j <= b.length; j++) rows[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      rows[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}
