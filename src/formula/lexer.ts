import type { Token, TokenKind } from './tokens.js';

const TAB = 9, LF = 10, CR = 13, SPACE = 32;
const PLUS = 43, MINUS = 45, STAR = 42, DOT = 46;
const ZERO = 48, NINE = 57, UPPER_E = 69, LOWER_E = 101, UPPER_L = 76;

// ASCII character classes, looked up rather than tested in chains: the lexer is the hot loop.
const OTHER = 0, NAME_START = 1, DIGIT = 2, PUNCTUATION = 3;
const CHARACTER_CLASS = new Uint8Array(128);
const IS_NAME_PART = new Uint8Array(128);
const PUNCTUATION_KIND: TokenKind[] = [];
for (let code = 65; code <= 90; code++) CHARACTER_CLASS[code] = NAME_START;
for (let code = 97; code <= 122; code++) CHARACTER_CLASS[code] = NAME_START;
CHARACTER_CLASS[95] = NAME_START;
for (let code = ZERO; code <= NINE; code++) CHARACTER_CLASS[code] = DIGIT;
for (let code = 0; code < 128; code++) {
  const characterKind = CHARACTER_CLASS[code];
  IS_NAME_PART[code] = characterKind === NAME_START || characterKind === DIGIT ? 1 : 0;
}
for (const [character, kind] of [
  ['+', 'plus'], ['-', 'minus'], ['*', 'star'], ['/', 'slash'], ['^', 'power'], ['(', 'lparen'], [')', 'rparen'], [',', 'comma'],
] as const) {
  CHARACTER_CLASS[character.charCodeAt(0)] = PUNCTUATION;
  PUNCTUATION_KIND[character.charCodeAt(0)] = kind;
}

function characterClass(code: number): number {
  return code < 128 ? (CHARACTER_CLASS[code] ?? OTHER) : OTHER;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

const PUNCTUATION_TEXT: Partial<Record<TokenKind, string>> = {
  plus: '+', minus: '-', star: '*', slash: '/', lparen: '(', rparen: ')', comma: ',', eof: '',
};

/**
 * A cursor over the tokens of a formula: the current token is `kind`, `start`, `end`, and no
 * object is made per token, which is what lets the parser check a million short formulas a
 * second. `scan` builds its Token array on top of it.
 */
export class Lexer {
  kind: TokenKind = 'eof';
  start = 0;
  end = 0;
  /** Whether an identifier `L` has been read so far. */
  sawL = false;

  constructor(readonly source: string) {
    this.next();
  }

  /** The current token's text. */
  text(): string {
    return PUNCTUATION_TEXT[this.kind] ?? this.source.slice(this.start, this.end);
  }

  next(): void {
    const source = this.source;
    let index = this.end;
    let code = source.charCodeAt(index);
    while (code === SPACE || code === TAB || code === LF || code === CR) code = source.charCodeAt(++index);
    this.start = index;
    if (index >= source.length) {
      this.kind = 'eof';
      this.end = index;
      return;
    }
    const kind = characterClass(code);
    index++;
    if (kind === NAME_START) {
      for (let next = source.charCodeAt(index); next < 128 && IS_NAME_PART[next] === 1; next = source.charCodeAt(++index));
      if (code === UPPER_L && index === this.start + 1) this.sawL = true;
      this.kind = 'identifier';
    } else if (kind === PUNCTUATION) {
      if (code === STAR && source.charCodeAt(index) === STAR) {
        index++;
        this.kind = 'power';
      } else {
        this.kind = PUNCTUATION_KIND[code] ?? 'error';
      }
    } else if (kind === DIGIT || (code === DOT && isDigit(source.charCodeAt(index)))) {
      index = numberEnd(source, this.start);
      this.kind = 'number';
    } else {
      // Keep a surrogate pair together so a diagnostic never splits a character.
      if (code >= 0xd800 && code <= 0xdbff) {
        const low = source.charCodeAt(index);
        if (low >= 0xdc00 && low <= 0xdfff) index++;
      }
      this.kind = 'error';
    }
    this.end = index;
  }

  /** Reads to the end, so `sawL` covers the whole formula. */
  drain(): void {
    while (this.kind !== 'eof') this.next();
  }
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

/** `2`, `2.5`, `.5`, `1.`, `1e-3`, `1E+3`. An `e` not followed by digits is left for the next token (as in `2eps`). */
function numberEnd(source: string, start: number): number {
  let index = start;
  while (isDigit(source.charCodeAt(index))) index++;
  if (source.charCodeAt(index) === DOT) {
    index++;
    while (isDigit(source.charCodeAt(index))) index++;
  }
  const e = source.charCodeAt(index);
  if (e === LOWER_E || e === UPPER_E) {
    let next = index + 1;
    const sign = source.charCodeAt(next);
    if (sign === PLUS || sign === MINUS) next++;
    if (isDigit(source.charCodeAt(next))) {
      index = next + 1;
      while (isDigit(source.charCodeAt(index))) index++;
    }
  }
  return index;
}
