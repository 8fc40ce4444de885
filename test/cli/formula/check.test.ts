import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerFormulaCheck } from '../../../src/cli/commands/formula/check.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api, tempDir } from '../../helpers/server.js';

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
