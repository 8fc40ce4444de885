import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANSI } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';

interface Report {
  formula: string;
  valid: boolean;
  usesL: boolean;
  errors: { message: string; offset: number; length: number; suggestion?: string }[];
}

const parseLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Report);

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

describe('reportctl formula eval', () => {
  it('evaluates NDVI on given reflectances', async () => {
    const result = await runInProcess(['formula', 'eval', '(NIR - R) / (NIR + R + eps)', '--band', 'NIR=0.62', '--band', 'R=0.08', '--eps', '0']);
    expect(result.code).toBe(0);
    expect(Number(result.stdout.trim())).toBeCloseTo((0.62 - 0.08) / (0.62 + 0.08), 12);
  });

  it('uses --L for SAVI and prints JSON with --json', async () => {
    const result = await runInProcess(['formula', 'eval', '(1 + L) * (NIR - R) / (NIR + R + L + eps)', '-b', 'NIR=0.5', '-b', 'R=0.1', '--L', '0.5', '--eps', '0', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { value: number };
    expect(parsed.value).toBeCloseTo((1.5 * 0.4) / 1.1, 12);
  });

  it('names every missing band, exit 2', async () => {
    const result = await runInProcess(['formula', 'eval', '(NIR - G) / (RE + B + eps)', '--band', 'NIR=0.5']);
    expect(result.code).toBe(2);
    for (const band of ['G', 'RE', 'B']) expect(result.stderr).toContain(band);
    expect(result.stderr).toContain('--band');
  });

  it('rejects a malformed --band with exit 2', async () => {
    const result = await runInProcess(['formula', 'eval', 'NIR', '--band', 'NIR:0.5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/NAME=VALUE/);
  });

  it('reports an invalid formula with exit 1', async () => {
    const result = await runInProcess(['formula', 'eval', 'NIR / R', '--band', 'NIR=1', '--band', 'R=1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/eps/);
  });
});

describe('reportctl basics', () => {
  it('prints an overview with no arguments, exit 0', async () => {
    const result = await runInProcess([]);
    expect(result.code).toBe(0);
    for (const group of ['templates', 'formula', 'serve', 'admin']) expect(result.stdout).toContain(group);
  });
});
