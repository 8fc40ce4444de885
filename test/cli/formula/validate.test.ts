import { describe, expect, it } from 'vitest';
import { registerFormulaValidate } from '../../../src/cli/commands/formula/validate.js';
import { ANSI } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api } from '../../helpers/server.js';

describe('formula validate flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaValidate(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'validate', 'NIR / R'], { options: {}, args: ['NIR / R'] }],
      [['formula', 'validate', 'NIR / R', '--json'], { options: { json: true }, args: ['NIR / R'] }],
      [['formula', 'validate'], { usage: /missing required argument 'formula'/ }],
      [['formula', 'validate', 'NIR / R', '--remote-rules'], { usage: /unknown option '--remote-rules'/ }],
    ],
  );
});

describe('formula validate (the service decides)', () => {
  const suite = inProcessServiceForSuite();
  const env = () => suite.env;
  const key = () => suite.account.apiKey;

  it('a valid formula exits 0 and says whether it uses L', async () => {
    const result = await runInProcess(['formula', 'validate', '(1 + L) * (NIR - R) / (NIR + R + L + eps)'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('valid (uses L: yes)\n');
  });

  it('an invalid one exits 1 and points at the spot, like formula check', async () => {
    const formula = '(NIR - R) / (NIR + R)';
    const result = await runInProcess(['formula', 'validate', formula], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(ANSI);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('invalid: 1 error (uses L: no)');
    expect(lines[1]).toBe(`    ${formula}`);
    expect(lines[2]).toBe(`    ${' '.repeat(formula.indexOf('(NIR + R)'))}${'^'.repeat('(NIR + R)'.length)}`);
    expect(lines[3]).toMatch(/eps/);
  });

  it('--json has the shape of formula check --json, with what the service answered', async () => {
    const formula = 'nir / (R + eps)';
    const [result, service] = await Promise.all([
      runInProcess(['formula', 'validate', formula, '--json'], { env: env() }),
      api(suite.server, 'POST', '/api/v2/templates/validate-formula', { key: key(), body: { formula } }),
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ formula, ...(service.body as object) });
    const offline = await runInProcess(['formula', 'check', formula, '--json']);
    const offlineReport = JSON.parse(offline.stdout) as { errors: { message: string; offset: number; length: number }[] };
    expect(Object.keys(JSON.parse(result.stdout) as object).sort()).toEqual(Object.keys(offlineReport).sort());
  });

  it('an over-long formula is refused before the round trip (exit 2); no key exits 3', async () => {
    expect((await runInProcess(['formula', 'validate', 'R+'.repeat(1000) + 'R'], { env: env() })).code).toBe(2);
    expect((await runInProcess(['formula', 'validate', 'NIR'], { env: { REPORTCTL_BASE_URL: suite.server.url } })).code).toBe(3);
  });
});
