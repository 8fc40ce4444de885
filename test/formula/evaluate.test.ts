import { describe, expect, it } from 'vitest';
import { evaluate, FormulaEvaluationError, parse, type Node } from '../../src/formula/index.js';

const tree = (formula: string): Node => {
  const { ast, diagnostics } = parse(formula);
  expect(diagnostics).toEqual([]);
  return ast!;
};

describe('evaluate', () => {
  it('names every missing value, once each, in reading order', () => {
    let caught: unknown;
    try {
      evaluate(tree('(NIR - R) / (NIR + R + eps) * G'), { NIR: 0.5 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FormulaEvaluationError);
    const error = caught as FormulaEvaluationError;
    expect(error.missing).toEqual(['R', 'eps', 'G']);
    expect(error.message).toContain('`R`');
    expect(error.message).toContain('`eps`');
    expect(error.message).toContain('`G`');
  });

  it('does not take inherited object properties for values', () => {
    expect(() => evaluate(tree('constructor + toString'), {})).toThrow(FormulaEvaluationError);
  });

  it('follows IEEE arithmetic for division by zero', () => {
    expect(evaluate(tree('1 / 0'), {})).toBe(Infinity);
    expect(evaluate(tree('-1 / 0'), {})).toBe(-Infinity);
    expect(evaluate(tree('0 / 0'), {})).toBeNaN();
    expect(evaluate(tree('sqrt(-1)'), {})).toBeNaN();
  });

  it('applies sqrt and abs', () => {
    expect(evaluate(tree('sqrt(NIR)'), { NIR: 0.25 })).toBe(0.5);
    expect(evaluate(tree('abs(R - NIR)'), { R: 0.1, NIR: 0.6 })).toBeCloseTo(0.5, 12);
  });

  it('refuses calls it cannot make', () => {
    expect(() => evaluate(tree('log(2)'), {})).toThrow(/unknown function `log`/);
    expect(() => evaluate(tree('sqrt(1, 2)'), {})).toThrow(/exactly one argument/);
  });

  it('names the first bad call as the text reads: the outer before the inner, the left before the right', () => {
    expect(() => evaluate(tree('log(ln(2))'), {})).toThrow(/unknown function `log`/);
    expect(() => evaluate(tree('abs(1) + log(2) + ln(3)'), {})).toThrow(/unknown function `log`/);
  });

  it('names missing values before any bad call', () => {
    expect(() => evaluate(tree('log(x)'), {})).toThrow(/no value for `x`/);
  });
});
