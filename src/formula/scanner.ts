import { Lexer } from './lexer.js';

export type TokenKind =
  | 'number'
  | 'identifier'
  | 'plus'
  | 'minus'
  | 'star'
  | 'slash'
  /** `^` or `**`: not part of the grammar, scanned so the parser can say so precisely. */
  | 'power'
  | 'lparen'
  | 'rparen'
  | 'comma'
  /** A character the grammar has no use for; `text` is that one code point. */
  | 'error'
  | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the first code unit. */
  start: number;
  /** Offset just past the last code unit. */
  end: number;
}

/**
 * Splits a formula into tokens, ending with `eof`. Never throws: characters outside the
 * grammar become `error` tokens. Whitespace is space, tab, CR and LF only.
 */
export function scan(source: string): Token[] {
  const tokens: Token[] = [];
  const lexer = new Lexer(source);
  for (;;) {
    tokens.push({ kind: lexer.kind, text: lexer.text(), start: lexer.start, end: lexer.end });
    if (lexer.kind === 'eof') return tokens;
    lexer.next();
  }
}
