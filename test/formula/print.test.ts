import { describe, expect, it } from 'vitest';
import { parse, print } from '../../src/formula/index.js';

const canonical = (formula: string): string => {
  const { ast, diagnostics } = parse(formula);
  expect(diagnostics).toEqual([]);
  return print(ast!);
};

describe('print', () => {
  it('spaces operators and drops parentheses the tree does not need', () => {
    expect(canonical('((NIR-R))/(NIR+R+eps)')).toBe('(NIR - R) / (NIR + R + eps)');
    expect(canonical('(2*R)+(G/B)')).toBe('2 * R + G / B');
    expect(canonical('-(R)*-(G)')).toBe('-R * -G');
    expect(canonical('sqrt( (R) ,G )')).toBe('sqrt(R, G)');
  });

  it('keeps the parentheses that matter', () => {
    expect(canonical('R - (G - B)')).toBe('R - (G - B)');
    expect(canonical('R / (G / B)')).toBe('R / (G / B)');
    expect(canonical('R / (G * B)')).toBe('R / (G * B)');
    expect(canonical('(R - G) - B')).toBe('R - G - B');
    expect(canonical('-(R + G)')).toBe('-(R + G)');
    expect(canonical('(R + G) * B')).toBe('(R + G) * B');
  });

  it('keeps numbers as written', () => {
    expect(canonical('1. + .5 + 1E+3')).toBe('1. + .5 + 1E+3');
  });
});
