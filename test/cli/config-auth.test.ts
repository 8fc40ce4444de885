import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { closedUrl, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter } from '../helpers/in-process.js';

const suite = inProcessServiceForSuite();
const key = () => suite.account.apiKey;
/** A URL nothing answers at, for the level of the precedence that must lose. */
let wrongUrl: string;

beforeAll(async () => {
  wrongUrl = await closedUrl();
});

const configFile = (dir: string) => join(dir, 'config.json');
const readConfig = (dir: string) => JSON.parse(readFileSync(configFile(dir), 'utf8')) as {
  currentProfile?: string;
  profiles?: Record<string, Record<string, string>>;
};

describe('config', () => {
  it('set writes the profile to a file only the user can read; get and list show the effective values', async () => {
    const dir = tempDir('reportctl-config-');
    const env = { REPORTCTL_CONFIG_DIR: dir };
    for (const [name, value] of [
      ['base-url', `${suite.server.url}/`],
      ['api-key', key()],
      ['key-header', 'x-api-key'],
      ['language', 'es'],
    ]) {
      const result = await runInProcess(['config', 'set', name!, value!], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    }
    expect(statSync(configFile(dir)).mode & 0o777).toBe(0o600);
    expect(readConfig(dir).profiles).toEqual({ default: { baseUrl: suite.server.url, apiKey: key(), keyHeader: 'X-API-Key', language: 'es' } });

    expect((await runInProcess(['config', 'get', 'base-url'], { env })).stdout).toBe(`${suite.server.url}\n`);
    const redacted = await runInProcess(['config', 'get', 'api-key'], { env });
    expect(redacted.stdout).toBe(`${key().slice(0, 9)}…\n`);
    expect((await runInProcess(['config', 'get', 'api-key', '--reveal'], { env })).stdout).toBe(`${key()}\n`);

    const list = await runInProcess(['config', 'list', '--json'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(key());
    const listed = JSON.parse(list.stdout) as { configFile: string; settings: Record<string, { value: string; source: string }> };
    expect(listed.configFile).toBe(configFile(dir));
    expect(listed.settings).toEqual({
      profile: { value: 'default', source: 'default' },
      'base-url': { value: suite.server.url, source: 'profile default' },
      'api-key': { value: `${key().slice(0, 9)}…`, source: 'profile default' },
      'key-header': { value: 'X-API-Key', source: 'profile default' },
      language: { value: 'es', source: 'profile default' },
    });
    const table = await runInProcess(['config', 'list'], { env });
    expect(table.stdout).toContain(`api-key\t${key().slice(0, 9)}…\tprofile default`);
    expect(table.stdout).not.toContain(key());

    // The saved settings work, including the X-API-Key header.
    expect((await runInProcess(['catalogs', 'statistics'], { env })).code).toBe(0);
  });

  it('set refuses values it cannot use (exit 2) and writes nothing', async () => {
    const dir = tempDir('reportctl-config-');
    for (const args of [
      ['base-url', 'ftp://example.com'],
      ['base-url', 'not a url'],
      ['key-header', 'Cookie'],
      ['language', 'fr'],
      ['api-key', 'two words'],
      ['colour', 'red'],
    ]) {
      const result = await runInProcess(['config', 'set', ...args], { env: { REPORTCTL_CONFIG_DIR: dir } });
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(existsSync(configFile(dir))).toBe(false);
  });

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

describe('auth', () => {
  it('login --with-key-stdin checks the key, then saves it in a 0600 file', async () => {
    const dir = tempDir('reportctl-config-');
    const env = { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url };
    const result = await runInProcess(['auth', 'login', '--with-key-stdin'], { env, input: `${key()}\n` });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${key().slice(0, 9)}…`);
    expect(result.stderr).not.toContain(key());
    expect(statSync(configFile(dir)).mode & 0o777).toBe(0o600);
    expect(readConfig(dir).profiles?.default?.apiKey).toBe(key());

    const status = await runInProcess(['auth', 'status'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('accepted');
    expect(status.stdout).toContain(`${key().slice(0, 9)}… (profile default`);
    expect(status.stdout).not.toContain(key());

    const logout = await runInProcess(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(readConfig(dir).profiles?.default?.apiKey).toBeUndefined();
    const after = await runInProcess(['auth', 'status', '--json'], { env });
    expect(after.code).toBe(3);
    expect(JSON.parse(after.stdout)).toMatchObject({ status: 'missing', apiKey: null });
  });

  it('login with a --base-url saves the URL with the key', async () => {
    const dir = tempDir('reportctl-config-');
    const result = await runInProcess(['auth', 'login', '--with-key-stdin', '--base-url', suite.server.url], { env: { REPORTCTL_CONFIG_DIR: dir }, input: key() });
    expect(result.code).toBe(0);
    expect(readConfig(dir).profiles?.default).toEqual({ apiKey: key(), baseUrl: suite.server.url });
  });

  it('a key the service rejects exits 3 and nothing is saved', async () => {
    const dir = tempDir('reportctl-config-');
    const result = await runInProcess(['auth', 'login', '--with-key-stdin'], {
      env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url },
      input: `rctl_${'n'.repeat(43)}\n`,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('rejected');
    expect(result.stderr).toContain('nothing was saved');
    expect(existsSync(configFile(dir))).toBe(false);
  });

  it('on a terminal, login asks for the key (a blank answer is refused), then saves it', async () => {
    const dir = tempDir('reportctl-config-');
    const prompter = scriptedPrompter(
      { kind: 'password', message: `API key for ${suite.server.url}`, answer: '  ' },
      { kind: 'password', message: `API key for ${suite.server.url}`, answer: ` ${key()} ` },
    );
    const result = await runInProcess(['auth', 'login'], { env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url }, tty: { stdin: true, stdout: true }, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked[0]!.refused).toEqual(['paste the key (it is not shown)']);
    expect(readConfig(dir).profiles?.default?.apiKey).toBe(key());
  });

  it('without a terminal and without --with-key-stdin, login is a usage error naming the flag', async () => {
    const dir = tempDir('reportctl-config-');
    const result = await runInProcess(['auth', 'login'], { env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: suite.server.url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--with-key-stdin');
    expect(existsSync(configFile(dir))).toBe(false);
  });

  it('status: 3 when the key is rejected, 6 when the service cannot be reached', async () => {
    const rejected = await runInProcess(['auth', 'status'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: 'rctl_wrong' } });
    expect(rejected.code).toBe(3);
    expect(rejected.stdout).toContain('rejected (API_KEY_INVALID');
    const unreachable = await runInProcess(['auth', 'status', '--json'], { env: { REPORTCTL_BASE_URL: wrongUrl, REPORTCTL_API_KEY: key() } });
    expect(unreachable.code).toBe(6);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ status: 'unreachable', baseUrl: wrongUrl, baseUrlSource: 'env REPORTCTL_BASE_URL' });
    expect(unreachable.stderr).toContain(wrongUrl);
  });
});
