// Across modules: the engine's diagnostics for the mistakes people make (names, functions, eps).
import { describe, expect, it } from 'vitest';
import { checkFormula, type Diagnostic } from '../../src/formula/index.js';

/** The only error of an invalid formula. */
function onlyError(formula: string): Diagnostic {
  const check = checkFormula(formula);
  expect(check.valid).toBe(false);
  expect(check.errors).toHaveLength(1);
  return check.errors[0]!;
}

function accepted(formula: string): void {
  const check = checkFormula(formula);
  expect(check.errors).toEqual([]);
  expect(check.valid).toBe(true);
}

describe('names', () => {
  it('suggests the band a lower-case name meant', () => {
    expect(onlyError('(nir - R) / (NIR + R + eps)')).toEqual({
      code: 'unknown-identifier',
      message: 'unknown band `nir`',
      offset: 1,
      length: 3,
      suggestion: 'did you mean `NIR`?',
    });
  });

  it('suggests by edit distance: a swap, a missing letter, an extra digit', () => {
    expect(onlyError('NRI + R').suggestion).toBe('did you mean `NIR`?');
    expect(onlyError('NIR + ep').suggestion).toBe('did you mean `eps`?');
    expect(onlyError('RE1 * 2').suggestion).toBe('did you mean `RE`?');
    expect(onlyError('NIR * Eps').message).toBe('unknown scalar `Eps`');
  });

  it('suggests nothing far-fetched, and lists what is allowed instead', () => {
    const error = onlyError('NIR - S1');
    expect(error).toMatchObject({ code: 'unknown-identifier', message: 'unknown name `S1`', offset: 6, length: 2 });
    expect(error.suggestion).toBe('use a band (R, G, B, RE, NIR) or a scalar (eps, L)');
    expect(onlyError('T + R').suggestion).not.toMatch(/did you mean/);
  });

  it('reports every unknown name, in source order', () => {
    const { errors } = checkFormula('(S1 - nir) * gamma + S1');
    expect(errors.map((e) => [e.code, e.offset, e.length])).toEqual([
      ['unknown-identifier', 1, 2],
      ['unknown-identifier', 6, 3],
      ['unknown-identifier', 13, 5],
      ['unknown-identifier', 21, 2],
    ]);
  });

  it('is case-sensitive', () => {
    expect(onlyError('r + R').suggestion).toBe('did you mean `R`?');
    expect(onlyError('R + l').suggestion).toBe('did you mean `L`?');
  });
});

describe('functions', () => {
  it('names the allowed functions for an unknown one', () => {
    expect(onlyError('log(NIR)')).toMatchObject({
      code: 'unknown-function',
      message: 'unknown function `log`; allowed: sqrt, abs',
      offset: 0,
      length: 3,
    });
    expect(onlyError('NIR + Sqrt(R)')).toMatchObject({ code: 'unknown-function', offset: 6, length: 4, suggestion: 'did you mean `sqrt`?' });
  });

  it('wants exactly one argument', () => {
    expect(onlyError('sqrt()')).toMatchObject({
      code: 'wrong-argument-count',
      message: '`sqrt` takes exactly one argument; got 0',
      offset: 0,
      length: 6,
    });
    expect(onlyError('R + abs(NIR, R)')).toMatchObject({
      code: 'wrong-argument-count',
      message: '`abs` takes exactly one argument; got 2',
      offset: 4,
      length: 11,
    });
    accepted('sqrt(abs(NIR - R))');
  });

  it('refuses a band called like a function, and a function used as a value', () => {
    expect(onlyError('NIR(R + G)')).toMatchObject({
      code: 'not-a-function',
      message: '`NIR` is a band, not a function',
      offset: 0,
      length: 3,
      suggestion: 'use `*` for multiplication: NIR * (R + G)',
    });
    expect(onlyError('eps(2)')).toMatchObject({ code: 'not-a-function', message: '`eps` is a scalar, not a function' });
    expect(onlyError('NIR * sqrt')).toMatchObject({ code: 'function-without-call', offset: 6, length: 4 });
  });
});

describe('eps guards', () => {
  it('wants eps in a parenthesised divisor, and says where to add it', () => {
    expect(onlyError('(NIR - R) / (NIR + R)')).toEqual({
      code: 'division-without-eps',
      message: 'the divisor of `(NIR - R) / (NIR + R)` must include eps',
      offset: 12,
      length: 9,
      suggestion: 'add eps to the divisor: (NIR + R + eps)',
    });
  });

  it('wants eps in a bare divisor', () => {
    expect(onlyError('NIR / R')).toEqual({
      code: 'division-without-eps',
      message: 'the divisor of `NIR / R` must include eps',
      offset: 6,
      length: 1,
      suggestion: 'add eps to the divisor: (R + eps)',
    });
  });

  it('wants eps in the divisor itself: eps in the numerator does not count', () => {
    expect(onlyError('eps / NIR')).toMatchObject({
      code: 'division-without-eps',
      message: 'the divisor of `eps / NIR` must include eps',
      offset: 6,
      length: 3,
    });
  });

  it('shortens a long division to its divisor, and a long divisor to its start', () => {
    const numerator = Array.from({ length: 20 }, () => 'NIR').join(' + ');
    expect(onlyError(`(${numerator}) / R`).message).toBe('the divisor of `… / R` must include eps');
    const divisor = Array.from({ length: 20 }, () => 'R').join(' + ');
    const { message } = onlyError(`NIR / (${divisor})`);
    expect(message).toBe(`the divisor of \`… / ${`(${divisor})`.slice(0, 55)}…\` must include eps`);
  });

  it('checks every division, nested ones included', () => {
    const formula = '1 / G - NIR / (R + 1 / RE + eps) + B / (R * (G + 1))';
    const { errors } = checkFormula(formula);
    expect(errors.map((e) => [e.code, e.offset, e.length])).toEqual([
      ['division-without-eps', 4, 1],
      ['division-without-eps', 23, 2],
      ['division-without-eps', formula.indexOf('(R * (G'), '(R * (G + 1))'.length],
    ]);
    // eps inside a nested division still guards the outer one.
    accepted('NIR / (R / (G + eps))');
  });

  it('accepts eps anywhere inside the divisor, and reads only the divisor', () => {
    accepted('NIR / (abs(R - G) + eps)');
    accepted('NIR / sqrt(eps + R)');
    accepted('NIR / -(R + eps)');
    expect(onlyError('(NIR + eps) / R').offset).toBe(14);
    // `/` and `*` are left-associative: the divisor of `/ 2` is only `2`.
    expect(onlyError('NIR / 2 * eps')).toMatchObject({ offset: 6, length: 1 });
  });

  it('is a rule, so rules without it accept plain division', () => {
    const rules = { allowedBands: ['R', 'NIR'], allowedScalars: [], allowedFunctions: [], divisionRequiresEps: false };
    expect(checkFormula('NIR / R', rules).valid).toBe(true);
    expect(checkFormula('NIR / G', rules).errors[0]).toMatchObject({ code: 'unknown-identifier', offset: 6 });
    expect(checkFormula('sqrt(R)', rules).errors[0]!.message).toBe('unknown function `sqrt`; no functions are allowed');
  });
});

describe('syntax', () => {
  it('refuses the power operator in both spellings', () => {
    expect(onlyError('NIR ^ 2')).toEqual({
      code: 'power-operator',
      message: 'power operator is not supported',
      offset: 4,
      length: 1,
      suggestion: 'use multiplication, e.g. NIR * NIR',
    });
    expect(onlyError('(NIR ** 2)')).toMatchObject({ code: 'power-operator', offset: 5, length: 2 });
  });

  it('points at the `(` that is never closed', () => {
    expect(onlyError('((NIR - R) / (NIR + R + eps)')).toMatchObject({ code: 'unbalanced-parenthesis', offset: 0, length: 1 });
    expect(onlyError('(NIR - R) / (NIR + R + eps')).toMatchObject({ code: 'unbalanced-parenthesis', offset: 12, length: 1 });
    expect(onlyError('sqrt(NIR')).toMatchObject({ code: 'unbalanced-parenthesis', offset: 4, length: 1 });
  });

  it('points at the `)` that has no `(`', () => {
    expect(onlyError('(NIR - R)) / (NIR + R + eps)')).toMatchObject({ code: 'unbalanced-parenthesis', offset: 9, length: 1 });
    expect(onlyError(')NIR')).toMatchObject({ code: 'missing-operand', offset: 0, length: 1 });
  });

  it('asks for an operand after a trailing operator', () => {
    expect(onlyError('NIR +')).toMatchObject({
      code: 'missing-operand',
      message: 'expected an operand after `+`',
      offset: 4,
      length: 1,
    });
    expect(onlyError('NIR * -  ')).toMatchObject({ code: 'missing-operand', offset: 6, length: 1 });
    expect(onlyError('NIR + * R')).toMatchObject({ code: 'missing-operand', offset: 6, length: 1 });
    expect(onlyError('/ R')).toMatchObject({ code: 'missing-operand', offset: 0, length: 1 });
    expect(onlyError('NIR * ()')).toMatchObject({ code: 'missing-operand', offset: 6, length: 2 });
  });

  it('calls empty and blank formulas empty', () => {
    expect(onlyError('')).toMatchObject({ code: 'empty', offset: 0, length: 0 });
    expect(onlyError(' \t\r\n')).toMatchObject({ code: 'empty', offset: 0, length: 4 });
  });

  it('explains a unicode minus or dash', () => {
    expect(onlyError('NIR \u2212 R')).toEqual({
      code: 'unexpected-character',
      message: 'unexpected character `\u2212`',
      offset: 4,
      length: 1,
      suggestion: 'use the ASCII minus `-`',
    });
    expect(onlyError('NIR \u2013 R')).toMatchObject({ offset: 4, suggestion: 'use the ASCII minus `-`' });
    expect(onlyError('\u2212NIR')).toMatchObject({ offset: 0, suggestion: 'use the ASCII minus `-`' });
  });

  it('keeps checking after a look-alike operator', () => {
    const { errors } = checkFormula('NIR \u2212 R \u00d7 G ^ 2');
    expect(errors.map((e) => [e.code, e.offset])).toEqual([
      ['unexpected-character', 4],
      ['unexpected-character', 8],
      ['power-operator', 12],
    ]);
  });

  it('shows invisible characters by code point', () => {
    expect(onlyError('NIR\u00a0+ R')).toMatchObject({ message: 'unexpected character U+00A0', offset: 3, suggestion: 'use a plain space' });
    expect(onlyError('R + \ud83d\ude00')).toMatchObject({ code: 'unexpected-character', offset: 4, length: 2 });
  });

  it('asks for `*` instead of implicit multiplication, at the second operand', () => {
    const message = 'missing operator; use `*` for multiplication';
    expect(onlyError('2NIR')).toMatchObject({ code: 'missing-operator', message, offset: 1, length: 3, suggestion: 'write `2 * NIR`' });
    expect(onlyError('2 NIR')).toMatchObject({ code: 'missing-operator', message, offset: 2, length: 3 });
    expect(onlyError('(R)(G)')).toMatchObject({ code: 'missing-operator', message, offset: 3, length: 1 });
    expect(onlyError('NIR 0.5')).toMatchObject({ code: 'missing-operator', offset: 4, length: 3 });
    expect(onlyError('2eps')).toMatchObject({ code: 'missing-operator', offset: 1, length: 3 });
  });

  it('hints at a decimal comma', () => {
    expect(onlyError('0,5 * NIR')).toMatchObject({ code: 'unexpected-token', offset: 1, suggestion: 'use `.` as the decimal separator: `0.5`' });
  });
});

describe('accepted forms', () => {
  it('reads every number form', () => {
    for (const formula of ['1.', '.5', '1e-3', '1E+3', '2', '2.5', '1.5e3 * NIR', 'NIR * 1. + .5']) accepted(formula);
  });

  it('takes tab, CR and LF as whitespace', () => {
    accepted('(NIR\t-\tR)\r\n/\n(NIR + R + eps)');
  });

  it('takes chains of signs', () => {
    for (const formula of ['-NIR', '--NIR', '- - NIR', '+NIR', '-+-NIR', 'NIR * -R', 'NIR - -R']) accepted(formula);
  });

  it('says whether L is used', () => {
    expect(checkFormula('(1 + L) * NIR').usesL).toBe(true);
    expect(checkFormula('NIR + R').usesL).toBe(false);
    expect(checkFormula('L +').usesL).toBe(true);
    expect(checkFormula('Lx + l').usesL).toBe(false);
  });
});

describe('length limit', () => {
  const formulaOf = (length: number): string => 'R' + ' + R'.repeat((length - 1) / 4);

  it('accepts 2000 characters and refuses 2001', () => {
    const atLimit = formulaOf(1997) + '   ';
    expect(atLimit).toHaveLength(2000);
    accepted(atLimit);
    const overLimit = atLimit + ' ';
    expect(checkFormula(overLimit).errors).toEqual([
      {
        code: 'too-long',
        message: 'formula is 2001 characters; the maximum is 2000',
        offset: 2000,
        length: 1,
        suggestion: 'shorten the formula',
      },
    ]);
  });

  it('reports only the length of an over-long formula, but still says whether L is used', () => {
    const check = checkFormula('nir + L + '.repeat(300));
    expect(check.errors.map((e) => e.code)).toEqual(['too-long']);
    expect(check.usesL).toBe(true);
    expect(check.ast).toBeNull();
  });
});
