// Across modules: the engine end to end (lexer, parser, checks, evaluate) on the classic vegetation indices.
import { describe, expect, it } from 'vitest';
import { checkFormula, evaluate, parse } from '../../src/formula/index.js';

// Sample reflectances of healthy vegetation.
const NIR = 0.5, R = 0.08, G = 0.1, B = 0.05, RE = 0.3, eps = 1e-9, L = 0.5;
const values = { NIR, R, G, B, RE, eps, L };

// Expected values come from the textbook formulas (without eps) in plain arithmetic.
const indices = [
  { name: 'NDVI', formula: '(NIR - R) / (NIR + R + eps)', expected: (NIR - R) / (NIR + R), usesL: false },
  { name: 'NDWI', formula: '(G - NIR) / (G + NIR + eps)', expected: (G - NIR) / (G + NIR), usesL: false },
  {
    name: 'EVI',
    formula: '2.5 * (NIR - R) / (NIR + 6 * R - 7.5 * B + 1 + eps)',
    expected: (2.5 * (NIR - R)) / (NIR + 6 * R - 7.5 * B + 1),
    usesL: false,
  },
  {
    name: 'SAVI',
    formula: '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
    expected: ((1 + L) * (NIR - R)) / (NIR + R + L),
    usesL: true,
  },
  { name: 'NDRE', formula: '(NIR - RE) / (NIR + RE + eps)', expected: (NIR - RE) / (NIR + RE), usesL: false },
  { name: 'LCI', formula: '(NIR - RE) / (NIR + R + eps)', expected: (NIR - RE) / (NIR + R), usesL: false },
];

describe('classic vegetation indices', () => {
  it.each(indices)('$name is valid and evaluates to its textbook value', ({ formula, expected, usesL }) => {
    const check = checkFormula(formula);
    expect(check.errors).toEqual([]);
    expect(check.valid).toBe(true);
    expect(check.usesL).toBe(usesL);
    expect(check.ast).not.toBeNull();
    expect(evaluate(check.ast!, values)).toBeCloseTo(expected, 8);
  });

  it('agrees with numbers worked out by hand', () => {
    const value = (formula: string): number => evaluate(parse(formula).ast!, values);
    expect(value('(NIR - R) / (NIR + R + eps)')).toBeCloseTo(0.42 / 0.58, 8); // NDVI ≈ 0.724
    expect(value('(G - NIR) / (G + NIR + eps)')).toBeCloseTo(-0.4 / 0.6, 8); // NDWI ≈ -0.667
    expect(value('2.5 * (NIR - R) / (NIR + 6 * R - 7.5 * B + 1 + eps)')).toBeCloseTo(1.05 / 1.605, 8); // EVI ≈ 0.654
    expect(value('(1 + L) * (NIR - R) / (NIR + R + L + eps)')).toBeCloseTo(0.63 / 1.08, 8); // SAVI ≈ 0.583
    expect(value('(NIR - RE) / (NIR + RE + eps)')).toBeCloseTo(0.25, 8); // NDRE
    expect(value('(NIR - RE) / (NIR + R + eps)')).toBeCloseTo(0.2 / 0.58, 8); // LCI ≈ 0.345
  });

  it('lets unary minus bind tighter than * and /, and evaluates left to right', () => {
    const value = (formula: string, given: Record<string, number> = {}): number => evaluate(parse(formula).ast!, given);
    expect(value('-2 * 3')).toBe(-6);
    expect(value('8 / 4 / 2')).toBe(1);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('2 + 3 * 4')).toBe(14);
    expect(value('(2 + 3) * 4')).toBe(20);
    expect(value('- - 5')).toBe(5);
    expect(value('-+-5')).toBe(5);
    expect(value('sqrt(16) + abs(-2.5)')).toBe(6.5);
    expect(value('1. + .5 + 1e-3 + 1E+3')).toBe(1001.501);
  });
});
