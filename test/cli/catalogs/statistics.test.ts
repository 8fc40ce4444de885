import { describe, expect, it } from 'vitest';
import { registerCatalogsStatistics } from '../../../src/cli/commands/catalogs/statistics.js';
import { fakeClock } from '../../helpers/clock.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess, startInProcessService } from '../../helpers/in-process.js';
import { api, closedUrl } from '../../helpers/server.js';
import { expectJsonAsServed, expectNoColour } from './support.js';

describe('catalogs statistics flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsStatistics(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'statistics'], { options: {} }],
      [['catalogs', 'statistics', '--json', '-v'], { options: { json: true, verbose: true } }],
      [['catalogs', 'statistics', '--analysis-type', 'counting'], { usage: /unknown option '--analysis-type'/ }],
    ],
  );
});

describe('catalogs statistics', () => {
  const suite = inProcessServiceForSuite();

  it('--json prints what the service returned', async () => {
    await expectJsonAsServed(suite, 'statistics', '/api/v2/catalogs/statistics');
  });

  it('statistics piped: analysis type and key per line', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/statistics', { key: suite.account.apiKey })).body as Record<string, string[]>;
    const result = await runInProcess(['catalogs', 'statistics'], { env: suite.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(Object.entries(catalog).flatMap(([type, keys]) => keys.map((k) => `${type}\t${k}`)));
  });

  it('no colour codes when piped or with NO_COLOR, even when FORCE_COLOR asks for them', async () => {
    await expectNoColour(suite, 'statistics');
  });
});

describe('catalogs statistics failures', () => {
  const suite = inProcessServiceForSuite();

  it('an unreachable base URL exits 6 and names the URL', async () => {
    const url = await closedUrl();
    const result = await runInProcess(['catalogs', 'statistics'], { env: { ...suite.env, REPORTCTL_BASE_URL: url }, clock: fakeClock() });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(url);
  });

  it('a rejected key exits 3', async () => {
    const result = await runInProcess(['catalogs', 'statistics'], { env: { ...suite.env, REPORTCTL_API_KEY: 'rctl_wrong' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('API_KEY_INVALID');
  });
});

describe('catalogs statistics at the rate limit', () => {
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
