// Across verbs: which base URL, key and profile every command uses (flag > environment > profile > default).
import { beforeAll, describe, expect, it } from 'vitest';
import { closedUrl, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { readConfig } from './config/support.js';

const suite = inProcessServiceForSuite();
const key = () => suite.account.apiKey;
/** A URL nothing answers at, for the level of the precedence that must lose. */
let wrongUrl: string;

beforeAll(async () => {
  wrongUrl = await closedUrl();
});


describe('config', () => {
  it('precedence: --base-url flag > REPORTCTL_BASE_URL > profile > default', async () => {
    const dir = tempDir('reportctl-config-');
    const run = (args: string[], extra: Record<string, string> = {}) =>
      runInProcess(['catalogs', 'statistics', ...args], { env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_API_KEY: key(), ...extra } });

    // Nothing configured: the default, where nothing listens in this test.
    expect((await runInProcess(['config', 'get', 'base-url'], { env: { REPORTCTL_CONFIG_DIR: dir } })).stdout).toBe('http://127.0.0.1:4747\n');

    // The profile beats the default.
    await runInProcess(['config', 'set', 'base-url', suite.server.url], { env: { REPORTCTL_CONFIG_DIR: dir } });
    expect((await run([])).code).toBe(0);

    // The environment beats the profile: the wrong URL in the env is the one used.
    const fromEnv = await run([], { REPORTCTL_BASE_URL: wrongUrl });
    expect(fromEnv.code).toBe(6);
    expect(fromEnv.stderr).toContain(wrongUrl);

    // The flag beats the environment.
    expect((await run(['--base-url', suite.server.url], { REPORTCTL_BASE_URL: wrongUrl })).code).toBe(0);
    const fromFlag = await run(['--base-url', wrongUrl], { REPORTCTL_BASE_URL: suite.server.url });
    expect(fromFlag.code).toBe(6);
    expect(fromFlag.stderr).toContain(wrongUrl);

    // And the environment beats a wrong profile.
    await runInProcess(['config', 'set', 'base-url', wrongUrl], { env: { REPORTCTL_CONFIG_DIR: dir } });
    expect((await run([], { REPORTCTL_BASE_URL: suite.server.url })).code).toBe(0);
    const listed = await runInProcess(['config', 'list', '--json'], { env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url } });
    expect((JSON.parse(listed.stdout) as { settings: Record<string, unknown> }).settings['base-url']).toEqual({
      value: suite.server.url,
      source: 'env REPORTCTL_BASE_URL',
    });
  });

  it('the same precedence for the key and the profile', async () => {
    const dir = tempDir('reportctl-config-');
    const env = { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url };
    await runInProcess(['config', 'set', 'api-key', `rctl_${'w'.repeat(43)}`], { env });
    expect((await runInProcess(['catalogs', 'statistics'], { env })).code).toBe(3);
    expect((await runInProcess(['catalogs', 'statistics'], { env: { ...env, REPORTCTL_API_KEY: key() } })).code).toBe(0);
    expect((await runInProcess(['catalogs', 'statistics', '--api-key', 'rctl_wrong_flag'], { env: { ...env, REPORTCTL_API_KEY: key() } })).code).toBe(3);

    // Profiles: `config use` switches, REPORTCTL_PROFILE and --profile override it.
    await runInProcess(['config', 'set', 'api-key', key(), '--profile', 'good'], { env });
    const use = await runInProcess(['config', 'use', 'good'], { env });
    expect(use.code).toBe(0);
    expect(readConfig(dir).currentProfile).toBe('good');
    expect((await runInProcess(['catalogs', 'statistics'], { env })).code).toBe(0);
    expect((await runInProcess(['catalogs', 'statistics'], { env: { ...env, REPORTCTL_PROFILE: 'default' } })).code).toBe(3);
    expect((await runInProcess(['catalogs', 'statistics', '--profile', 'good'], { env: { ...env, REPORTCTL_PROFILE: 'default' } })).code).toBe(0);
  });
});
