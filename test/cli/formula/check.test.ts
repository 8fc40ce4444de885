import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerFormulaCheck } from '../../../src/cli/commands/formula/check.js';
import { ANSI } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api, tempDir } from '../../helpers/server.js';
import { parseLines } from './support.js';

describe('formula check flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaCheck(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'check', '(NIR - R) / (NIR + R + eps)'], { options: {}, args: ['(NIR - R) / (NIR + R + eps)'] }],
      [['formula', 'check', '--', '-NIR / (R + eps)'], { options: {}, args: ['-NIR / (R + eps)'] }],
      [['formula', 'check', '--file', 'formulas.txt', '--json'], { options: { file: 'formulas.txt', json: true }, args: [undefined] }],
      [['formula', 'check', '-f', '-', '--remote-rules'], { options: { file: '-', remoteRules: true }, args: [undefined] }],
      [['formula', 'check', '-NIR / (R + eps)'], { usage: /unknown option '-NIR \/ \(R \+ eps\)'\n[^]*hint: a formula that starts with - goes after --/ }],
      [['formula', 'check', 'NIR', 'R'], { usage: /too many arguments/ }],
    ],
  );
});

describe('formula check --remote-rules', () => {
  const suite = inProcessServiceForSuite();
  const env = () => suite.env;
  const key = () => suite.account.apiKey;

  it("checks offline against the rules the service publishes", async () => {
    const formula = '(SWIR - NIR) / (SWIR + NIR)';
    // Bundled rules: SWIR is not a band, and the division needs eps.
    const bundled = await runInProcess(['formula', 'check', formula, '--json']);
    expect(bundled.code).toBe(1);

    // The platform administrator publishes SWIR and drops the eps rule.
    const defaults = (await api(suite.server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key: key() })).body as {
      customFormula: { allowedBands: string[]; rules: { divisionRequiresEps: boolean } };
    };
    defaults.customFormula.allowedBands.push('SWIR');
    defaults.customFormula.rules.divisionRequiresEps = false;
    const file = join(tempDir(), 'catalogs.json');
    writeFileSync(file, JSON.stringify({ vegetationIndexDefaults: defaults }));
    await suite.server.admin('catalogs', 'import', '--file', file);

    const remote = await runInProcess(['formula', 'check', formula, '--remote-rules', '--json'], { env: env() });
    expect(remote.stderr).toBe('');
    expect(remote.code).toBe(0);
    expect(JSON.parse(remote.stdout)).toEqual({ formula, valid: true, usesL: false, errors: [] });
    // And it agrees with the service itself.
    expect((await runInProcess(['formula', 'validate', formula], { env: env() })).code).toBe(0);

    // Still offline parsing: an unknown band under the remote rules is reported with a hint.
    const unknown = await runInProcess(['formula', 'check', 'swir / NIR', '--remote-rules'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('SWIR');
  });

  it('an unreachable service exits 6', async () => {
    const result = await runInProcess(['formula', 'check', 'NIR', '--remote-rules'], { env: { REPORTCTL_BASE_URL: 'http://127.0.0.1:9', REPORTCTL_API_KEY: key() } });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('http://127.0.0.1:9');
  });
});

describe('reportctl formula check', () => {
  it('accepts a valid formula with exit 0 and says whether it uses L', async () => {
    const result = await runInProcess(['formula', 'check', '(1 + L) * (NIR - R) / (NIR + R + L + eps)']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/valid/);
    expect(result.stdout).toMatch(/uses L: yes/);
    expect(result.stderr).toBe('');
  });

  it('shows each error with a caret under the span and a hint, exit 1', async () => {
    const formula = '(nir - R) / (NIR + R)';
    const result = await runInProcess(['formula', 'check', formula]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    const formulaLine = lines.findIndex((line) => line.trim() === formula);
    expect(formulaLine).toBeGreaterThan(0);
    // The caret line sits under `nir` (offset 1, length 3).
    const caretLine = lines[formulaLine + 1]!;
    const indent = lines[formulaLine]!.indexOf(formula);
    expect(caretLine.slice(indent)).toMatch(/^ \^\^\^$/);
    expect(result.stdout).toContain('did you mean `NIR`?');
    expect(result.stdout).toContain('eps');
  });

  it('takes formulas that start with a minus after --', async () => {
    const result = await runInProcess(['formula', 'check', '--', '-NIR']);
    expect(result.code).toBe(0);
  });

  it('prints one JSON object per formula with --json', async () => {
    const result = await runInProcess(['formula', 'check', '--json', 'NIR ^ 2']);
    expect(result.code).toBe(1);
    const [report] = parseLines(result.stdout);
    expect(Object.keys(report!).sort()).toEqual(['errors', 'formula', 'usesL', 'valid']);
    expect(report!.formula).toBe('NIR ^ 2');
    expect(report!.valid).toBe(false);
    expect(report!.errors[0]).toMatchObject({ offset: 4, length: 1 });
    expect(report!.errors[0]!.suggestion).toMatch(/multiplication/);
  });

  it('checks a batch from stdin, one formula per line, skipping blanks and comments', async () => {
    const input = ['# indices', '(NIR - R) / (NIR + R + eps)', '', 'NIR / R', 'sqrt(NIR)', ''].join('\n');
    const result = await runInProcess(['formula', 'check', '--file', '-', '--json'], { input });
    expect(result.code).toBe(1);
    const reports = parseLines(result.stdout);
    expect(reports.map((report) => [report.formula, report.valid])).toEqual([
      ['(NIR - R) / (NIR + R + eps)', true],
      ['NIR / R', false],
      ['sqrt(NIR)', true],
    ]);
  });

  it('labels batch results by line number for people', async () => {
    const dir = tempDir();
    const file = join(dir, 'formulas.txt');
    writeFileSync(file, 'NIR\r\n\r\nnir\r\n');
    const result = await runInProcess(['formula', 'check', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^line 1: valid/m);
    expect(result.stdout).toMatch(/^line 3: invalid/m);
  });

  it('exits 0 when every formula of a batch is valid', async () => {
    const result = await runInProcess(['formula', 'check', '--file', '-'], { input: 'NIR\nR + G\n' });
    expect(result.code).toBe(0);
  });

  it.each([
    [['formula', 'check'], /missing FORMULA/],
    [['formula', 'check', 'NIR', '--file', 'x.txt'], /not both/],
    [['formula', 'check', '--file', '/nonexistent/formulas.txt'], /cannot read/],
    [['formula', 'check', '--bogus', 'NIR'], /unknown option/],
    [['formula', 'check', 'NIR', 'R'], /too many arguments/],
    [['formula', 'chek', 'NIR'], /check/],
  ])('usage errors exit 2: %j', async (args, message) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('refuses a 2,001-character formula with a clear message, accepts 2,000', async () => {
    const exact = 'NIR+'.repeat(499) + 'NIR ';
    const long = exact + ' ';
    expect([exact.length, long.length]).toEqual([2000, 2001]);
    const tooLong = await runInProcess(['formula', 'check', '--json', long]);
    expect(tooLong.code).toBe(1);
    expect(parseLines(tooLong.stdout)[0]!.errors[0]!.message).toMatch(/2001.*2000|2000.*2001/);
    const ok = await runInProcess(['formula', 'check', exact]);
    expect(ok.code).toBe(0);
  });

  it('prints no ANSI codes when piped, with NO_COLOR, or with --no-color', async () => {
    for (const env of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
      const result = await runInProcess(['formula', 'check', 'nir / R'], { env });
      expect(result.stdout).not.toMatch(ANSI);
      expect(result.stderr).not.toMatch(ANSI);
    }
    const flagged = await runInProcess(['formula', 'check', 'nir', '--no-color'], { env: { FORCE_COLOR: '1' } });
    expect(flagged.stdout).not.toMatch(ANSI);
    // FORCE_COLOR alone turns colour on, which shows the checks above are not vacuous.
    const forced = await runInProcess(['formula', 'check', 'nir'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI);
  });
});
