import type { BinaryOperator, Call, Identifier, Node, UnaryOperator } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { Lexer } from './lexer.js';
import { ABORT, ParseCursor } from './parse-cursor.js';
import * as messages from './syntax-messages.js';
import { DIVIDE_LIKE, MINUS_LIKE, TIMES_LIKE } from './syntax-messages.js';

export { MAX_NESTING_DEPTH } from './parse-cursor.js';

export interface ParseResult {
  /** The tree, or null when there is any diagnostic. */
  ast: Node | null;
  diagnostics: Diagnostic[];
}

/** Parses a formula. Never throws; problems come back as diagnostics. */
export function parse(source: string): ParseResult {
  return parseFrom(new Lexer(source));
}

/** `parse` from a lexer the caller keeps (checkFormula drains it for `L`). Syntax only: the rules are checked on the tree. */
export function parseFrom(lexer: Lexer): ParseResult {
  const parser = new Parser(lexer);
  const ast = parser.parseFormula();
  return { ast, diagnostics: parser.diagnostics };
}

/** A sign, `(` or `name(` read before the operand it applies to; `open` is where its `(` is. */
interface Prefix {
  kind: UnaryOperator | '(' | 'call(';
  start: number;
  open: number;
  callee?: string;
  calleeEnd?: number;
}

/**
 * One function per precedence level: additive, multiplicative, unary (with parsePrefixed for
 * deep nesting), primary.
 */
class Parser extends ParseCursor {
  parseFormula(): Node | null {
    const lexer = this.lexer;
    if (lexer.kind === 'eof') {
      this.diagnostics.push(messages.emptyFormula(lexer.source.length));
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
        this.diagnostics.push(messages.tooDeepToParse(lexer.source.length));
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
        this.diagnostics.push(messages.missingOperator(this.current(), this.previous()));
        const right = this.parseUnary();
        left = { kind: 'binary', op: '*', left, right, start, end: this.previousEnd };
        continue;
      } else return left;
      this.advance();
      const right = this.parseUnary();
      left = { kind: 'binary', op, left, right, start, end: this.previousEnd };
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
    return { kind: 'identifier', name, start, end };
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
    return { kind: 'call', callee, calleeStart: start, calleeEnd, args: [], start, end: this.previousEnd };
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
      if (this.kind() === 'rparen') this.fail(messages.emptyParentheses(innermost.start, this.lexer.end));
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
        node = { kind: 'call', callee, calleeStart: start, calleeEnd, args, start, end: this.previousEnd } satisfies Call;
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
        return this.fail(messages.missingOperand(this.current(), this.previous()));
    }
  }

  private powerOperator(): BinaryOperator {
    this.diagnostics.push(messages.powerOperator(this.current()));
    return '*';
  }
}
