// Across modules: the service's validate-formula and the CLI's formula check agree on every formula.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { inBatches } from '../helpers/http.js';

/**
 * `formula check` validates offline with the same module the embedded service checks
 * formulas with (README, Formulas, offline). So the service's validate-formula and the CLI agree on every input: the
 * verdict, usesL, and where each error is.
 */

interface Verdict {
  valid: boolean;
  usesL: boolean;
  errors?: Array<{ message: string; offset: number; length: number }>;
}

const formulas: string[] = [
  '(NIR - R) / (NIR + R + eps)',
  '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
  '2.5 * (NIR - R) / (NIR + 6 * R - 7.5 * B + 1 + eps)',
  'sqrt(abs(NIR - RE)) + .5 * 1e-3 - 1.',
  '-NIR * -R',
  '\tNIR\r\n+\nG ',
  '(NIR - R) / (NIR + nir + eps)',
  'NIR ^ 2',
  '2 NIR',
  'NIR / R',
  'sqrt',
  'sqrt(NIR, R)',
  'log(NIR)',
  '(NIR - R',
  'NIR +',
  '',
  '   ',
  'L * ndvi / (R + eps)',
  '('.repeat(999) + '1' + ')'.repeat(999),
  '-'.repeat(1500) + 'NIR',
  ('NIR' + ' + NIR'.repeat(300)).padEnd(2000, ' '),
];

const suite = inProcessServiceForSuite();

const positions = (verdict: Verdict) => (verdict.errors ?? []).map(({ message, offset, length }) => ({ message, offset, length }));

describe('validate-formula agrees with `reportctl formula check --json`', () => {
  it(`on ${formulas.length} formulas: valid, usesL, and each error's offset, length and message`, async () => {
    const offline = await inBatches(
      formulas.map((formula) => async () => {
        const result = await runInProcess(['formula', 'check', '--json', '--', formula]);
        // An invalid formula's verdict is on stdout; stderr says only why the exit code is 1.
        const failure = result.code === 0 ? '' : `${JSON.stringify({ error: 'FORMULA_INVALID', message: 'the formula is invalid', exitCode: 1 })}\n`;
        expect(result.stderr, JSON.stringify(formula)).toBe(failure);
        const lines = result.stdout.trim().split('\n');
        expect(lines.length).toBe(1);
        return { code: result.code, verdict: JSON.parse(lines[0]!) as Verdict };
      }),
      2,
    );
    const served: Verdict[] = [];
    for (const formula of formulas) {
      const response = await api(suite.server, 'POST', '/api/v2/templates/validate-formula', { key: suite.account.apiKey, body: { formula } });
      expect(response.status, JSON.stringify(formula)).toBe(200);
      served.push(response.body as Verdict);
    }

    let valid = 0;
    formulas.forEach((formula, index) => {
      const label = JSON.stringify(formula.length > 60 ? `${formula.slice(0, 60)}… (${formula.length} chars)` : formula);
      const cli = offline[index]!;
      const http = served[index]!;
      expect(http.valid, label).toBe(cli.verdict.valid);
      expect(http.usesL, label).toBe(cli.verdict.usesL);
      expect(cli.code, label).toBe(cli.verdict.valid ? 0 : 1);
      expect(positions(http), label).toEqual(positions(cli.verdict));
      if (http.valid) {
        valid++;
        expect(http.errors ?? [], label).toEqual([]);
      } else {
        expect(http.errors!.length, label).toBeGreaterThan(0);
        for (const error of http.errors!) {
          // 0-based into the formula; an error at the very end (e.g. "NIR +") points just past it.
          expect(error.offset, label).toBeGreaterThanOrEqual(0);
          expect(error.offset, label).toBeLessThanOrEqual(formula.length);
        }
      }
    });
    // The set is varied: both verdicts occur, and usesL is seen both ways.
    expect(valid).toBeGreaterThanOrEqual(6);
    expect(formulas.length - valid).toBeGreaterThanOrEqual(10);
    expect(served.some((verdict) => verdict.usesL)).toBe(true);
  });

  it('agrees with the README’s formula grammar on the cases it spells out', async () => {
    const verdict = async (formula: string) =>
      (await api(suite.server, 'POST', '/api/v2/templates/validate-formula', { key: suite.account.apiKey, body: { formula } })).body as Verdict;
    // Numbers in every form, unary signs, both functions, all whitespace kinds.
    expect(await verdict('2 + 2.5 + .5 + 1e-3 + 1. + -NIR + +R')).toMatchObject({ valid: true, usesL: false });
    expect(await verdict('sqrt(NIR) * abs(R - G)\t\r\n')).toMatchObject({ valid: true });
    // Identifiers are case-sensitive; no power, no implicit multiplication, no other names.
    for (const formula of ['nir + R', 'NIR ** 2', 'NIR ^ 2', '2(NIR)', 'NIR R', 'exp(NIR)', 'pi * NIR', 'abs()', 'abs(NIR, R)']) {
      expect((await verdict(formula)).valid, formula).toBe(false);
    }
    // Every division needs eps in its divisor.
    expect((await verdict('NIR / (R + G)')).valid).toBe(false);
    expect((await verdict('NIR / (R + G + eps)')).valid).toBe(true);
    expect((await verdict('NIR / (R + sqrt(eps))')).valid).toBe(true);
    // usesL is about the name L appearing.
    expect(await verdict('NIR * L')).toMatchObject({ valid: true, usesL: true });
    expect(await verdict('NIR * L +')).toMatchObject({ valid: false, usesL: true });
  });
});
