import { describe, expect, it } from 'vitest';
import { scan, type TokenKind } from '../../src/formula/index.js';

const kinds = (source: string): TokenKind[] => scan(source).map((t) => t.kind);
const texts = (source: string): string[] => scan(source).map((t) => t.text);

describe('scan', () => {
  it('reads every number form as one token', () => {
    for (const number of ['2', '2.5', '.5', '1.', '1e-3', '1E+3', '12e3', '0.000']) {
      expect(scan(number)).toEqual([
        { kind: 'number', text: number, start: 0, end: number.length },
        { kind: 'eof', text: '', start: number.length, end: number.length },
      ]);
    }
  });

  it('leaves an exponent without digits to the next token', () => {
    expect(texts('2eps')).toEqual(['2', 'eps', '']);
    expect(texts('1e-')).toEqual(['1', 'e', '-', '']);
    expect(texts('1.2.3')).toEqual(['1.2', '.3', '']);
  });

  it('reads operators, `**` and `^` included', () => {
    expect(kinds('a+b-c*d/e**f^g(h,i)')).toEqual([
      'identifier', 'plus', 'identifier', 'minus', 'identifier', 'star', 'identifier', 'slash', 'identifier',
      'power', 'identifier', 'power', 'identifier', 'lparen', 'identifier', 'comma', 'identifier', 'rparen', 'eof',
    ]);
    expect(texts('a***b')).toEqual(['a', '**', '*', 'b', '']);
  });

  it('skips only space, tab, CR and LF', () => {
    expect(kinds(' \t\r\nR')).toEqual(['identifier', 'eof']);
    expect(kinds('\u00a0R\v\f')).toEqual(['error', 'identifier', 'error', 'error', 'eof']);
  });

  it('turns unknown characters into error tokens, one code point each', () => {
    expect(scan('R\u2212\ud83d\ude00.')).toEqual([
      { kind: 'identifier', text: 'R', start: 0, end: 1 },
      { kind: 'error', text: '\u2212', start: 1, end: 2 },
      { kind: 'error', text: '\ud83d\ude00', start: 2, end: 4 },
      { kind: 'error', text: '.', start: 4, end: 5 },
      { kind: 'eof', text: '', start: 5, end: 5 },
    ]);
    // A lone surrogate is still one error token.
    expect(scan('\ud83d')).toHaveLength(2);
  });

  it('reads identifiers with digits and underscores', () => {
    expect(texts('RE1 _x a_b2')).toEqual(['RE1', '_x', 'a_b2', '']);
  });
});
