import type { Diagnostic } from './diagnostics.js';
import type { Lexer } from './lexer.js';
import * as messages from './syntax-messages.js';
import type { ExpressionEnd } from './syntax-messages.js';
import type { Token, TokenKind } from './tokens.js';

/**
 * Parentheses and calls nested deeper than this are refused with `too-deep`. A formula
 * within MAX_FORMULA_LENGTH nests at most 999 levels, so only over-long input meets it.
 */
export const MAX_NESTING_DEPTH = 1000;

/** Thrown inside the parser to stop at an error it cannot recover from. */
export const ABORT = Symbol('abort');

/**
 * The parser's hold on the token stream: the current and the last consumed token, how deep
 * in parentheses it is, the diagnostics so far, and how it stops. The grammar is in parser.ts.
 */
export class ParseCursor {
  readonly diagnostics: Diagnostic[] = [];
  protected depth = 0;
  // The token consumed last: composite nodes end where it ends; messages quote it.
  protected previousKind: TokenKind | null = null;
  protected previousStart = 0;
  protected previousEnd = 0;

  constructor(protected readonly lexer: Lexer) {}

  /** Consumes a `(`, refusing nesting deeper than MAX_NESTING_DEPTH; returns its offset. */
  protected enter(): number {
    const open = this.lexer.start;
    this.advance();
    if (++this.depth > MAX_NESTING_DEPTH) this.fail(messages.nestedTooDeep(open, MAX_NESTING_DEPTH));
    return open;
  }

  /** Consumes the `)` matching the `(` at `open`. */
  protected close(open: number, context: 'parentheses' | 'call'): void {
    if (this.lexer.kind !== 'rparen') this.notClosed(open, context);
    this.advance();
    this.depth--;
  }

  protected notClosed(open: number, context: 'parentheses' | 'call'): never {
    if (this.lexer.kind === 'eof') this.fail(messages.neverClosed(open));
    return this.fail(this.unexpected(context));
  }

  /** The current token's kind, read afresh (TypeScript cannot see `advance` change it). */
  protected kind(): TokenKind {
    return this.lexer.kind;
  }

  protected advance(): void {
    const lexer = this.lexer;
    this.previousKind = lexer.kind;
    this.previousStart = lexer.start;
    this.previousEnd = lexer.end;
    lexer.next();
  }

  /** Whether the current token is an error token in `lookAlikes`; if so, reports it. */
  protected isLookAlike(lookAlikes: ReadonlySet<string>): boolean {
    if (this.lexer.kind !== 'error' || !lookAlikes.has(this.lexer.text())) return false;
    this.diagnostics.push(messages.unexpectedCharacter(this.current()));
    return true;
  }

  protected current(): Token {
    const { kind, start, end } = this.lexer;
    return { kind, text: this.lexer.text(), start, end };
  }

  protected previous(): Token | undefined {
    if (this.previousKind === null) return undefined;
    const text = this.lexer.source.slice(this.previousStart, this.previousEnd);
    return { kind: this.previousKind, text, start: this.previousStart, end: this.previousEnd };
  }

  /** The current token cannot continue the expression where one ends (formula end, `)`). */
  protected unexpected(context: ExpressionEnd): Diagnostic {
    const next = (): Token => {
      this.lexer.next();
      return this.current();
    };
    return messages.unexpectedToken(this.current(), context, this.previous(), next);
  }

  protected fail(found: Diagnostic): never {
    this.diagnostics.push(found);
    throw ABORT;
  }
}
