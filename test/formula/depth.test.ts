// Across modules: the engine end to end on input nested deep enough to overflow a naive recursion.
import { describe, expect, it } from 'vitest';
import { checkFormula, evaluate, MAX_NESTING_DEPTH, parse, print } from '../../src/formula/index.js';

const nested = (depth: number, inner: string): string => '('.repeat(depth) + inner + ')'.repeat(depth);

describe('deep input', () => {
  it('parses 999 nested parentheses around NIR', () => {
    const formula = nested(999, 'NIR');
    const { ast, diagnostics } = parse(formula);
    expect(diagnostics).toEqual([]);
    expect(ast).toMatchObject({ kind: 'identifier', name: 'NIR', start: 999, end: 1002 });
    expect(print(ast!)).toBe('NIR');
    expect(evaluate(ast!, { NIR: 0.5 })).toBe(0.5);
    // 2001 characters: checkFormula refuses it for length alone.
    expect(checkFormula(formula).errors.map((e) => e.code)).toEqual(['too-long']);
  });

  it('checks the deepest nesting that fits in 2000 characters', () => {
    const formula = nested(999, 'R');
    expect(formula).toHaveLength(1999);
    expect(checkFormula(formula).valid).toBe(true);
  });

  it('checks, prints and evaluates 1,500 chained unary minus signs', () => {
    const formula = '-'.repeat(1500) + 'NIR';
    const check = checkFormula(formula);
    expect(check.errors).toEqual([]);
    expect(print(check.ast!)).toBe(formula);
    expect(evaluate(check.ast!, { NIR: 0.5 })).toBe(0.5);
    expect(evaluate(parse('-' + formula).ast!, { NIR: 0.5 })).toBe(-0.5);
  });

  it('handles nesting that mixes signs, calls, parentheses and divisions', () => {
    const signs = '-('.repeat(666) + 'R' + ')'.repeat(666);
    expect(checkFormula(signs).valid).toBe(true);
    expect(evaluate(parse(signs).ast!, { R: 2 })).toBe(2);

    const calls = 'sqrt('.repeat(333) + 'R' + ')'.repeat(333);
    expect(calls).toHaveLength(1999);
    expect(checkFormula(calls).valid).toBe(true);

    const divisions = 'R / (eps + '.repeat(160) + 'R' + ')'.repeat(160);
    expect(divisions.length).toBeLessThanOrEqual(2000);
    expect(checkFormula(divisions).valid).toBe(true);
    const unguarded = 'R / (R + '.repeat(199) + 'R' + ')'.repeat(199);
    expect(unguarded.length).toBeLessThanOrEqual(2000);
    expect(checkFormula(unguarded).errors).toHaveLength(199);

    const sums = 'R+'.repeat(999) + 'R';
    expect(checkFormula(sums).valid).toBe(true);
    expect(evaluate(parse(sums).ast!, { R: 1 })).toBe(1000);
  });

  it('refuses nesting deeper than the limit with a diagnostic, not a stack overflow', () => {
    const { ast, diagnostics } = parse(nested(5000, 'NIR'));
    expect(ast).toBeNull();
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'too-deep', offset: MAX_NESTING_DEPTH, length: 1 }),
    ]);
    expect(parse('sqrt('.repeat(5000) + 'R' + ')'.repeat(5000)).diagnostics[0]!.code).toBe('too-deep');
  });

  it('survives pathological 100,000-character input', () => {
    const inputs = [
      '('.repeat(100_000),
      ')'.repeat(100_000),
      '-'.repeat(100_000),
      nested(50_000, 'R'),
      'R+'.repeat(50_000),
      'sqrt('.repeat(20_000),
      '\u2212'.repeat(100_000) + 'R',
      'x'.repeat(100_000),
    ];
    for (const input of inputs) {
      expect(() => checkFormula(input)).not.toThrow();
      expect(() => parse(input)).not.toThrow();
      expect(checkFormula(input).errors.map((e) => e.code)).toEqual(['too-long']);
    }
  });

  it('prints and evaluates trees far deeper than any formula within the limit', () => {
    const signs = parse('-'.repeat(100_001) + 'R');
    expect(signs.diagnostics).toEqual([]);
    expect(evaluate(signs.ast!, { R: 3 })).toBe(-3);
    expect(print(signs.ast!)).toHaveLength(100_002);

    const sums = parse('R + '.repeat(50_000) + 'R');
    expect(evaluate(sums.ast!, { R: 1 })).toBe(50_001);
    expect(print(sums.ast!)).toBe('R + '.repeat(50_000) + 'R');
  });
});
