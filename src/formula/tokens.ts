// The token types, apart from the lexer so that every module can name them without a cycle.
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
