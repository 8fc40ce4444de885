import { describe, expect, it } from 'vitest';
import { ANSI } from '../helpers/cli.js';
import { fakeClock } from '../helpers/clock.js';
import { api, closedUrl, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, startInProcessService } from '../helpers/in-process.js';

const suite = inProcessServiceForSuite();
const env = () => suite.env;

describe('catalogs --json prints what the service returned', () => {
  it.each([
    ['report-types', '/api/v2/catalogs/report-types'],
    ['statistics', '/api/v2/catalogs/statistics'],
    ['vi-defaults', '/api/v2/catalogs/vegetation-index-defaults'],
  ])('catalogs %s', async (verb, path) => {
    const [result, expected] = await Promise.all([runInProcess(['catalogs', verb, '--json'], { env: env() }), api(suite.server, 'GET', path, { key: suite.account.apiKey })]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
  });

  it('report-types --analysis-type narrows the JSON to that array', async () => {
    const [result, expected] = await Promise.all([
      runInProcess(['catalogs', 'report-types', '--analysis-type', 'replanting', '--json'], { env: env() }),
      api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey }),
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((expected.body as { replanting: unknown[] }).replanting);
  });
});

describe('catalogs for people', () => {
  it('report-types piped: one tab-separated row per entry, labels in the profile language', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<
      string,
      { id: string; key: string; label: { en: string; es: string }; reportCategory: string }[]
    >;
    const configDir = tempDir('reportctl-config-');
    const english = await runInProcess(['catalogs', 'report-types'], { env: { ...env(), REPORTCTL_CONFIG_DIR: configDir, LANG: 'C' } });
    expect(english.code).toBe(0);
    const rows = english.stdout.trim().split('\n').map((line) => line.split('\t'));
    const entries = Object.entries(catalog).flatMap(([type, list]) => list.map((entry) => ({ type, entry })));
    expect(rows).toEqual(entries.map(({ type, entry }) => [type, entry.key, entry.label.en, entry.reportCategory, entry.id]));

    expect((await runInProcess(['config', 'set', 'language', 'es'], { env: { REPORTCTL_CONFIG_DIR: configDir } })).code).toBe(0);
    const spanish = await runInProcess(['catalogs', 'report-types', '--analysis-type', 'counting'], {
      env: { ...env(), REPORTCTL_CONFIG_DIR: configDir, LANG: 'C' },
    });
    expect(spanish.code).toBe(0);
    expect(spanish.stdout.trim().split('\n').map((line) => line.split('\t')[2])).toEqual(catalog.counting!.map((entry) => entry.label.es));
  });

  it('statistics piped: analysis type and key per line', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/statistics', { key: suite.account.apiKey })).body as Record<string, string[]>;
    const result = await runInProcess(['catalogs', 'statistics'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(Object.entries(catalog).flatMap(([type, keys]) => keys.map((k) => `${type}\t${k}`)));
  });

  it('vi-defaults shows every index with its accent colour and scale, the defaults and the formula rules', async () => {
    const defaults = (await api(suite.server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key: suite.account.apiKey })).body as {
      indexNames: string[];
      accentColors: Record<string, string>;
    };
    const result = await runInProcess(['catalogs', 'vi-defaults'], { env: env() });
    expect(result.code).toBe(0);
    for (const name of defaults.indexNames) expect(result.stdout).toMatch(new RegExp(`^${name}\\t${defaults.accentColors[name]}\\t`, 'm'));
    expect(result.stdout).toContain('map resolution  150 dpi');
    expect(result.stdout).toContain('every divisor must contain eps');
    expect(result.stdout).toContain('R, G, B, RE, NIR');
  });

  it('no colour codes when piped or with NO_COLOR, even when FORCE_COLOR asks for them', async () => {
    const forced = await runInProcess(['catalogs', 'vi-defaults'], { env: { ...env(), FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI); // the check below would notice colour
    for (const extra of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
      for (const verb of ['report-types', 'statistics', 'vi-defaults']) {
        const result = await runInProcess(['catalogs', verb], { env: { ...env(), ...extra } });
        expect(result.code).toBe(0);
        expect(result.stdout).not.toMatch(ANSI);
        expect(result.stderr).not.toMatch(ANSI);
      }
    }
    const noColorFlag = await runInProcess(['catalogs', 'vi-defaults', '--no-color'], { env: { ...env(), FORCE_COLOR: '1' } });
    expect(noColorFlag.stdout).not.toMatch(ANSI);
  });
});

describe('failures', () => {
  it('an unreachable base URL exits 6 and names the URL', async () => {
    const url = await closedUrl();
    const result = await runInProcess(['catalogs', 'statistics'], { env: { ...env(), REPORTCTL_BASE_URL: url }, clock: fakeClock() });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(url);
  });

  it('a rejected key exits 3', async () => {
    const result = await runInProcess(['catalogs', 'statistics'], { env: { ...env(), REPORTCTL_API_KEY: 'rctl_wrong' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('API_KEY_INVALID');
  });
});

describe('rate limit', () => {
  it('a 429 is waited out and retried: four quick calls all succeed at 3 reads per window', async () => {
    // One fake clock for the service's window and the CLI's wait: the window passes at once.
    const clock = fakeClock();
    const limited = await startInProcessService({ readsPerMinute: 3, now: clock.now });
    try {
      const limitedKey = (await limited.newAccount()).apiKey;
      const limitedEnv = { REPORTCTL_BASE_URL: limited.url, REPORTCTL_API_KEY: limitedKey };
      const results = [];
      for (let call = 0; call < 4; call++) {
        // Piped, waits are told only with --verbose (on a terminal a spinner says so).
        const verbose = call === 3 ? ['--verbose'] : [];
        results.push(await runInProcess(['catalogs', 'statistics', '--json', ...verbose], { env: limitedEnv, clock }));
      }
      for (const result of results) {
        expect(result.code).toBe(0);
        expect(Object.keys(JSON.parse(result.stdout))).toEqual(['counting', 'replanting', 'path']);
      }
      for (const result of results.slice(0, 3)) expect(result.stderr).toBe('');
      const fourth = results[3]!;
      expect(fourth.stderr).toMatch(/^< 429/m);
      expect(fourth.stderr).toMatch(/^reportctl: rate limited; retrying in \d+ s$/m);
      expect(fourth.stderr.match(/^< 200/gm)).toHaveLength(1);
      // It waited (on the clock) until the service's window let a read through.
      expect(clock.elapsed()).toBeGreaterThan(1000);
    } finally {
      await limited.stop();
    }
  });
});
