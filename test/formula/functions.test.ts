import { describe, expect, it, vi } from 'vitest';
import { seedCatalogs } from '../../src/contract/default-catalogs.js';
import type * as registry from '../../src/formula/functions.js';
import { checkFormula, defaultFormulaRules, evaluate, FormulaEvaluationError, parse } from '../../src/formula/index.js';

// The registry is the one place a formula function is added: give it a two-argument function
// and the default rules, the checks, the evaluator and the seeded catalog all know it.
vi.mock('../../src/formula/functions.js', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const formulaFunctions = [...original.formulaFunctions, { name: 'diff', arity: 2, apply: (a: number, b: number) => a - b }];
  const formulaFunction = (name: string) => formulaFunctions.find((fn) => fn.name === name);
  return { ...original, formulaFunctions, formulaFunction, arityOf: (name: string) => formulaFunction(name)?.arity ?? original.DEFAULT_ARITY };
});

const codes = (formula: string): string[] => checkFormula(formula).errors.map((error) => error.code);

describe('a function added to the registry', () => {
  it('is allowed by the default rules and in the seeded catalog', () => {
    expect(defaultFormulaRules.allowedFunctions).toEqual(['sqrt', 'abs', 'diff']);
    expect(seedCatalogs.vegetationIndexDefaults.customFormula.allowedFunctions).toEqual(['sqrt', 'abs', 'diff']);
  });

  it('is checked against its own number of arguments', () => {
    expect(codes('diff(NIR, R) / (NIR + R + eps)')).toEqual([]);
    const [tooFew] = checkFormula('diff(NIR)').errors;
    expect(tooFew).toMatchObject({ code: 'wrong-argument-count', message: '`diff` takes exactly two arguments; got 1' });
    expect(checkFormula('diff()').errors[0]).toMatchObject({ code: 'wrong-argument-count', suggestion: 'e.g. diff(R, R)' });
    expect(checkFormula('diff + R').errors[0]).toMatchObject({
      code: 'function-without-call',
      message: '`diff` is a function; call it with two arguments',
      suggestion: 'e.g. diff(R, R)',
    });
    // The others keep theirs.
    expect(checkFormula('sqrt(R, G)').errors[0]).toMatchObject({ message: '`sqrt` takes exactly one argument; got 2' });
  });

  it('is evaluated with its arguments in order', () => {
    expect(evaluate(parse('diff(NIR, R)').ast!, { NIR: 0.75, R: 0.25 })).toBe(0.5);
    expect(evaluate(parse('sqrt(diff(NIR, -R * 2))').ast!, { NIR: 1, R: 4 })).toBe(3);
    expect(() => evaluate(parse('diff(NIR)').ast!, { NIR: 1 })).toThrow('`diff` takes exactly two arguments; got 1');
  });
});

describe('a function the rules allow but the engine does not know', () => {
  const rules = { ...defaultFormulaRules, allowedFunctions: ['log'] };

  it('is checked as taking one argument, as the grammar says, and cannot be evaluated', () => {
    expect(checkFormula('log(NIR)', rules).valid).toBe(true);
    expect(checkFormula('log(NIR, R)', rules).errors[0]).toMatchObject({ code: 'wrong-argument-count' });
    const error = (() => {
      try {
        return evaluate(parse('log(NIR)').ast!, { NIR: 1 });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(FormulaEvaluationError);
    expect((error as Error).message).toBe('unknown function `log`');
  });
});
