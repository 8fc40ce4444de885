import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSI } from '../helpers/cli.js';
import { api, tempDir } from '../helpers/server.js';
import { runInProcess, startInProcessService, type InProcessService } from '../helpers/in-process.js';

let server: InProcessService;
let key: string;
const env = () => ({ REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: key });

beforeAll(async () => {
  server = await startInProcessService();
  key = (await server.newAccount()).apiKey;
});
afterAll(async () => {
  await server?.stop();
});

describe('formula validate (the service decides)', () => {
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
      api(server, 'POST', '/api/v2/templates/validate-formula', { key, body: { formula } }),
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ formula, ...(service.body as object) });
    const offline = await runInProcess(['formula', 'check', formula, '--json']);
    const offlineReport = JSON.parse(offline.stdout) as { errors: { message: string; offset: number; length: number }[] };
    expect(Object.keys(JSON.parse(result.stdout) as object).sort()).toEqual(Object.keys(offlineReport).sort());
  });

  it('an over-long formula is refused before the round trip (exit 2); no key exits 3', async () => {
    expect((await runInProcess(['formula', 'validate', 'R+'.repeat(1000) + 'R'], { env: env() })).code).toBe(2);
    expect((await runInProcess(['formula', 'validate', 'NIR'], { env: { REPORTCTL_BASE_URL: server.url } })).code).toBe(3);
  });
});

describe('formula check --remote-rules', () => {
  it("checks offline against the rules the service publishes", async () => {
    const formula = '(SWIR - NIR) / (SWIR + NIR)';
    // Bundled rules: SWIR is not a band, and the division needs eps.
    const bundled = await runInProcess(['formula', 'check', formula, '--json']);
    expect(bundled.code).toBe(1);

    // The platform administrator publishes SWIR and drops the eps rule.
    const defaults = (await api(server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key })).body as {
      customFormula: { allowedBands: string[]; rules: { divisionRequiresEps: boolean } };
    };
    defaults.customFormula.allowedBands.push('SWIR');
    defaults.customFormula.rules.divisionRequiresEps = false;
    const file = join(tempDir(), 'catalogs.json');
    writeFileSync(file, JSON.stringify({ vegetationIndexDefaults: defaults }));
    await server.admin('catalogs', 'import', '--file', file);

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
    const result = await runInProcess(['formula', 'check', 'NIR', '--remote-rules'], { env: { REPORTCTL_BASE_URL: 'http://127.0.0.1:9', REPORTCTL_API_KEY: key } });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('http://127.0.0.1:9');
  });
});
