import type { Binary, BinaryOperator, Call, Identifier, Node, UnaryOperator } from './ast.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { Lexer } from './lexer.js';
import type { Token, TokenKind } from './scanner.js';

/**
 * Parentheses and calls nested deeper than this are refused with `too-deep`. A formula
 * within MAX_FORMULA_LENGTH nests at most 999 levels, so only over-long input meets it.
 */
export const MAX_NESTING_DEPTH = 1000;

export interface ParseResult {
  /** The tree, or null when there is any diagnostic. */
  ast: Node | null;
  diagnostics: Diagnostic[];
}

/** Parses a formula. Never throws; problems come back as diagnostics. */
export function parse(source: string): ParseResult {
  const { ast, diagnostics } = parseWithFacts(new Lexer(source));
  return { ast, diagnostics };
}

/**
 * What checkFormula needs to know of a tree, gathered while parsing so it need not walk the
 * tree again: every name read as a value, every call, and every `/` whose divisor has no
 * `eps` in it.
 */
export interface ParseFacts {
  identifiers: Identifier[];
  calls: Call[];
  divisionsWithoutEps: Binary[];
}

/** `parse` from a lexer the caller keeps (checkFormula drains it for `L`), with the facts. */
export function parseWithFacts(lexer: Lexer): ParseResult & ParseFacts {
  const parser = new Parser(lexer);
  const ast = parser.parseFormula();
  const { diagnostics, identifiers, calls, divisionsWithoutEps } = parser;
  return { ast, diagnostics, identifiers, calls, divisionsWithoutEps };
}

// Look-alikes of the operators; scanned as errors, reported, then read as the operator so
// the rest of the formula is still checked.
const MINUS_LIKE = new Set(['\u2212', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\ufe63', '\uff0d']);
const TIMES_LIKE = new Set(['\u00d7', '\u00b7', '\u2219', '\u22c5', '\u2217']);
const DIVIDE_LIKE = new Set(['\u00f7', '\u2215', '\u2044']);

const POWER_SUGGESTION = 'use multiplication, e.g. NIR * NIR';

/** A sign, `(` or `name(` read before the operand it applies to; `open` is where its `(` is. */
interface Prefix {
  kind: UnaryOperator | '(' | 'call(';
  start: number;
  open: number;
  callee?: string;
  calleeEnd?: number;
}

/** Thrown inside the parser to stop at an error it cannot recover from. */
const ABORT = Symbol('abort');

/**
 * One function per precedence level: additive, multiplicative, unary (with parsePrefixed for
 * deep nesting), primary.
 */
class Parser {
  readonly diagnostics: Diagnostic[] = [];
  readonly identifiers: Identifier[] = [];
  readonly calls: Call[] = [];
  readonly divisionsWithoutEps: Binary[] = [];
  /** How many `eps` names have been read: a divisor mentions eps if this grew while reading it. */
  private epsSeen = 0;
  private depth = 0;
  // The token consumed last: composite nodes end where it ends; messages quote it.
  private previousKind: TokenKind | null = null;
  private previousStart = 0;
  private previousEnd = 0;

  constructor(private readonly lexer: Lexer) {}

  parseFormula(): Node | null {
    const lexer = this.lexer;
    if (lexer.kind === 'eof') {
      this.diagnostics.push(
        diagnostic('empty', 'formula is empty', 0, lexer.source.length, 'write an expression, e.g. (NIR - R) / (NIR + R + eps)'),
      );
      return null;
    }
    try {
      const node = this.parseAdditive();
      if (this.kind() !== 'eof') this.fail(this.unexpected('formula'));
      return this.diagnostics.length === 0 ? node : null;
    } catch (error) {
      if (error === ABORT) return null;
      // Formulas within MAX_FORMULA_LENGTH parse with half the default stack (tested); a
      // caller with less, or longer input, gets a diagnostic instead of a crash.
      if (error instanceof RangeError) {
        this.diagnostics.push(diagnostic('too-deep', 'formula nests too deeply to parse', 0, lexer.source.length));
        return null;
      }
      throw error;
    }
  }

  /** `first`, when given, is an operand already read, starting at `start` (see parseUnary). */
  private parseAdditive(start = this.lexer.start, first?: Node): Node {
    const lexer = this.lexer;
    let left = first ?? this.parseMultiplicative();
    for (;;) {
      let op: BinaryOperator;
      const kind = lexer.kind;
      if (kind === 'plus') op = '+';
      else if (kind === 'minus') op = '-';
      else if (kind === 'error' && this.isLookAlike(MINUS_LIKE)) op = '-';
      else return left;
      this.advance();
      const right = this.parseMultiplicative();
      left = { kind: 'binary', op, left, right, start, end: this.previousEnd };
    }
  }

  private parseMultiplicative(start = this.lexer.start, first?: Node): Node {
    const lexer = this.lexer;
    let left = first ?? this.parseUnary();
    for (;;) {
      let op: BinaryOperator;
      const kind = lexer.kind;
      if (kind === 'star') op = '*';
      else if (kind === 'slash') op = '/';
      else if (kind === 'power') op = this.powerOperator();
      else if (kind === 'error' && this.isLookAlike(TIMES_LIKE)) op = '*';
      else if (kind === 'error' && this.isLookAlike(DIVIDE_LIKE)) op = '/';
      else if (kind === 'number' || kind === 'identifier' || kind === 'lparen') {
        // Implicit multiplication (`2NIR`, `(R)(G)`): report, then read on as if `*` were there.
        this.diagnostics.push(this.missingOperator());
        const right = this.parseUnary();
        left = { kind: 'binary', op: '*', left, right, start, end: this.previousEnd };
        continue;
      } else return left;
      this.advance();
      const epsBefore = this.epsSeen;
      const right = this.parseUnary();
      const binary: Binary = { kind: 'binary', op, left, right, start, end: this.previousEnd };
      if (op === '/' && this.epsSeen === epsBefore) this.divisionsWithoutEps.push(binary);
      left = binary;
    }
  }

  /**
   * A signed operand, a group, a call, a number or a name. The usual shapes (`R`, `2`,
   * `(R + G)`, `-R`) are read here directly; anything nested deeper goes to parsePrefixed.
   */
  private parseUnary(): Node {
    const lexer = this.lexer;
    const { kind, start, end } = lexer;
    if (kind === 'number') return this.parsePrimary();
    if (kind === 'identifier') {
      const name = this.name();
      if (this.kind() !== 'lparen') return this.identifier(name, start, end);
      const call = this.openCall(name, start, end);
      return call.kind === 'call' ? call : this.parsePrefixed([call]);
    }
    if (kind === 'lparen') {
      const open = this.enter();
      const next = this.kind();
      // Recursing here is bounded like in parsePrefixed: an operand comes first inside.
      if (next !== 'number' && next !== 'identifier') return this.parsePrefixed([{ kind: '(', start, open }]);
      const inner = this.parseAdditive();
      this.close(open, 'parentheses');
      return inner;
    }
    return this.parseSigned();
  }

  /** `-R`, `+2`, `-sqrt(R)` directly; deeper nesting after the sign goes to parsePrefixed. */
  private parseSigned(): Node {
    const lexer = this.lexer;
    const start = lexer.start;
    const op = this.unaryOperator();
    if (op === null) return this.parsePrimary();
    this.advance();
    const operandStart = lexer.start;
    const operandEnd = lexer.end;
    const next = this.kind();
    let operand: Node;
    if (next === 'number') {
      operand = this.parsePrimary();
    } else if (next === 'identifier') {
      const name = this.name();
      if (this.kind() === 'lparen') {
        const call = this.openCall(name, operandStart, operandEnd);
        if (call.kind !== 'call') return this.parsePrefixed([{ kind: op, start, open: start }, call]);
        operand = call;
      } else {
        operand = this.identifier(name, operandStart, operandEnd);
      }
    } else {
      return this.parsePrefixed([{ kind: op, start, open: start }]);
    }
    return { kind: 'unary', op, operand, start, end: this.previousEnd };
  }

  private identifier(name: string, start: number, end: number): Identifier {
    const node: Identifier = { kind: 'identifier', name, start, end };
    this.identifiers.push(node);
    if (name === 'eps') this.epsSeen++;
    return node;
  }

  private call(node: Call): Call {
    this.calls.push(node);
    return node;
  }

  /** Reads the current identifier token's name. */
  private name(): string {
    const { start, end } = this.lexer;
    this.advance();
    return this.lexer.source.slice(start, end);
  }

  /**
   * After `name`, with `(` current: consumes the `(`, and returns the finished call if `)`
   * follows at once, else the prefix awaiting the arguments.
   */
  private openCall(callee: string, start: number, calleeEnd: number): Prefix | Call {
    const open = this.enter();
    if (this.kind() !== 'rparen') return { kind: 'call(', start, open, callee, calleeEnd };
    this.close(open, 'call');
    return this.call({ kind: 'call', callee, calleeStart: start, calleeEnd, args: [], start, end: this.previousEnd });
  }

  /**
   * Signs, `(` and `name(` are read in one loop and unwound after the operand inside them,
   * so `-(-(x))`, `((x))` or `f(f(x))` cost no stack however deep. The parser recurses only
   * where an operand and an operator stand between two `(` (`R * (R * (`), 4 characters a
   * level at least. `prefixes` holds those parseUnary has already read.
   */
  private parsePrefixed(prefixes: Prefix[]): Node {
    const operand = this.readPrefixes(prefixes);
    const innermost = prefixes[prefixes.length - 1];
    if (innermost === undefined) return operand ?? this.parsePrimary();
    let node: Node;
    if (innermost.kind === '+' || innermost.kind === '-') {
      node = operand ?? this.parsePrimary();
    } else if (operand !== undefined) {
      node = this.parseAdditive(operand.start, this.parseMultiplicative(operand.start, operand));
    } else {
      if (this.kind() === 'rparen') this.emptyParentheses(innermost.start);
      node = this.parseAdditive();
    }
    for (let i = prefixes.length - 1; i >= 0; i--) {
      const prefix = prefixes[i];
      if (prefix === undefined) continue;
      const { start } = prefix;
      if (prefix.kind === '(') {
        this.close(start, 'parentheses');
      } else if (prefix.kind === 'call(') {
        const args = [node];
        while (this.kind() === 'comma') {
          this.advance();
          args.push(this.parseAdditive());
        }
        this.close(prefix.open, 'call');
        const { callee = '', calleeEnd = start } = prefix;
        node = this.call({ kind: 'call', callee, calleeStart: start, calleeEnd, args, start, end: this.previousEnd });
      } else {
        node = { kind: 'unary', op: prefix.kind, operand: node, start, end: this.previousEnd };
      }
      // A group, call or signed operand inside `(` or `name(` is the first operand there.
      const outer = prefixes[i - 1];
      if (outer !== undefined && (outer.kind === '(' || outer.kind === 'call(')) {
        node = this.parseAdditive(start, this.parseMultiplicative(start, node));
      }
    }
    return node;
  }

  /**
   * Reads further signs, `(` and `name(` onto `prefixes`; returns the operand if reading it
   * was how the loop ended (a name or an empty call). Apart so its frame is off the stack
   * while parsePrefixed recurses.
   */
  private readPrefixes(prefixes: Prefix[]): Node | undefined {
    const lexer = this.lexer;
    for (;;) {
      const { kind, start, end } = lexer;
      if (kind === 'lparen') {
        this.enter();
        prefixes.push({ kind: '(', start, open: start });
      } else if (kind === 'identifier') {
        const name = this.name();
        if (this.kind() !== 'lparen') return this.identifier(name, start, end);
        const call = this.openCall(name, start, end);
        if (call.kind === 'call') return call;
        prefixes.push(call);
      } else {
        const op = this.unaryOperator();
        if (op === null) return undefined;
        this.advance();
        prefixes.push({ kind: op, start, open: start });
      }
    }
  }

  private unaryOperator(): UnaryOperator | null {
    const kind = this.lexer.kind;
    if (kind === 'minus') return '-';
    if (kind === 'plus') return '+';
    return kind === 'error' && this.isLookAlike(MINUS_LIKE) ? '-' : null;
  }

  /** A number or a name (parseUnary reads parentheses and calls). */
  private parsePrimary(): Node {
    const lexer = this.lexer;
    const { start, end } = lexer;
    switch (lexer.kind) {
      case 'number': {
        const raw = lexer.source.slice(start, end);
        this.advance();
        return { kind: 'number', value: Number(raw), raw, start, end };
      }
      case 'identifier': {
        const name = lexer.source.slice(start, end);
        this.advance();
        return this.identifier(name, start, end);
      }
      default:
        return this.fail(this.missingOperand());
    }
  }

  private emptyParentheses(open: number): never {
    const { end } = this.lexer;
    return this.fail(diagnostic('missing-operand', 'empty parentheses; expected an expression inside', open, end - open));
  }

  /** Consumes a `(`, refusing nesting deeper than MAX_NESTING_DEPTH; returns its offset. */
  private enter(): number {
    const open = this.lexer.start;
    this.advance();
    if (++this.depth > MAX_NESTING_DEPTH) this.tooDeep(open);
    return open;
  }

  private tooDeep(open: number): never {
    return this.fail(diagnostic('too-deep', `parentheses nest more than ${MAX_NESTING_DEPTH} levels deep`, open, 1));
  }

  /** Consumes the `)` matching the `(` at `open`. */
  private close(open: number, context: 'parentheses' | 'call'): void {
    if (this.lexer.kind !== 'rparen') this.notClosed(open, context);
    this.advance();
    this.depth--;
  }

  private notClosed(open: number, context: 'parentheses' | 'call'): never {
    if (this.lexer.kind === 'eof') {
      this.fail(diagnostic('unbalanced-parenthesis', 'this `(` is never closed', open, 1, 'add a matching `)`'));
    }
    return this.fail(this.unexpected(context));
  }

  /** The current token's kind, read afresh (TypeScript cannot see `advance` change it). */
  private kind(): TokenKind {
    return this.lexer.kind;
  }

  private advance(): void {
    const lexer = this.lexer;
    this.previousKind = lexer.kind;
    this.previousStart = lexer.start;
    this.previousEnd = lexer.end;
    lexer.next();
  }

  private powerOperator(): BinaryOperator {
    const { start, end } = this.lexer;
    this.diagnostics.push(diagnostic('power-operator', 'power operator is not supported', start, end - start, POWER_SUGGESTION));
    return '*';
  }

  /** Whether the current token is an error token in `lookAlikes`; if so, reports it. */
  private isLookAlike(lookAlikes: ReadonlySet<string>): boolean {
    if (this.lexer.kind !== 'error' || !lookAlikes.has(this.lexer.text())) return false;
    this.diagnostics.push(characterDiagnostic(this.current()));
    return true;
  }

  private current(): Token {
    const { kind, start, end } = this.lexer;
    return { kind, text: this.lexer.text(), start, end };
  }

  private previous(): Token | undefined {
    if (this.previousKind === null) return undefined;
    const text = this.lexer.source.slice(this.previousStart, this.previousEnd);
    return { kind: this.previousKind, text, start: this.previousStart, end: this.previousEnd };
  }

  /** The current token cannot continue the expression where one ends (formula end, `)`). */
  private unexpected(context: 'formula' | 'parentheses' | 'call'): Diagnostic {
    const token = this.current();
    const length = token.end - token.start;
    if (token.kind === 'error') return characterDiagnostic(token);
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
      const before = this.previous();
      this.lexer.next();
      const after = this.current();
      const decimal =
        before?.kind === 'number' && after.kind === 'number' && before.end === token.start && after.start === token.end;
      return diagnostic(
        'unexpected-token',
        context === 'call' ? 'unexpected `,`' : 'unexpected `,` outside a function call',
        token.start,
        length,
        decimal ? `use \`.\` as the decimal separator: \`${before.text}.${after.text}\`` : undefined,
      );
    }
    return diagnostic('unexpected-token', `unexpected \`${token.text}\``, token.start, length);
  }

  private missingOperand(): Diagnostic {
    const token = this.current();
    if (token.kind === 'error') return characterDiagnostic(token);
    const previous = this.previous();
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

  private missingOperator(): Diagnostic {
    const token = this.current();
    const previous = this.previous();
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

  private fail(found: Diagnostic): never {
    this.diagnostics.push(found);
    throw ABORT;
  }
}

function characterDiagnostic(token: Token): Diagnostic {
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
