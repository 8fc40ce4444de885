// Across modules: the engine end to end on the 341 formulas of the spectral-index corpus.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFormula } from '../../src/formula/index.js';

interface SpectralIndexCase {
  name: string;
  formula: string;
  valid: boolean;
  usesL: boolean;
  why: string;
}

const cases = JSON.parse(
  readFileSync(new URL('../fixtures/spectral-index-formulas.json', import.meta.url), 'utf8'),
) as SpectralIndexCase[];

describe('Awesome Spectral Indices catalogue', () => {
  it('holds the 341 documented cases, 71 of them valid', () => {
    expect(cases).toHaveLength(341);
    expect(cases.filter((c) => c.valid)).toHaveLength(71);
  });

  it.each(cases)('$name → valid $valid, usesL $usesL', ({ formula, valid, usesL, why }) => {
    const check = checkFormula(formula);
    expect(check.valid, `${why}; errors: ${JSON.stringify(check.errors)}`).toBe(valid);
    expect(check.usesL).toBe(usesL);
    expect(check.errors.length === 0).toBe(valid);
  });

  // The data's `why` names the problem; the diagnostics must name the same one.
  it.each(cases.filter((c) => !c.valid))('$name reports what `why` says', ({ formula, why }) => {
    const codes = new Set(checkFormula(formula).errors.map((e) => e.code));
    if (why.includes('**')) expect(codes).toContain('power-operator');
    else if (why.includes('unknown identifier')) expect(codes).toContain('unknown-identifier');
    else if (why.includes('lack eps')) expect([...codes]).toEqual(['division-without-eps']);
  });

  it('counts every eps-less divisor of a formula that only breaks the eps rule', () => {
    for (const c of cases) {
      const match = /^(\d+) divisor\(s\) lack eps/.exec(c.why);
      if (match === null) continue;
      expect(checkFormula(c.formula).errors, c.name).toHaveLength(Number(match[1]));
    }
  });
});
