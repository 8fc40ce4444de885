import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerAuthLogin } from '../../../src/cli/commands/auth/login.js';
import { fakeService, json } from '../../helpers/fake-service.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter } from '../../helpers/in-process.js';
import { closedUrl, tempDir } from '../../helpers/server.js';
import { configFile, readConfig } from '../config/support.js';

describe('auth login flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAuthLogin(program.command('auth'), deps, wrap, runF),
    [
      [['auth', 'login'], { options: {} }],
      [['auth', 'login', '--with-key-stdin', '--base-url', 'http://127.0.0.1:4747'], { options: { withKeyStdin: true, baseUrl: 'http://127.0.0.1:4747' } }],
      [['--no-input', 'auth', 'login'], { options: { input: false } }],
      [['auth', 'login', '--with-token'], { usage: /unknown option '--with-token'/ }],
    ],
  );
});

describe('auth login', () => {
  it('checks that the service answers before asking for the key', async () => {
    const dir = tempDir('reportctl-config-');
    // The default prompter fails the test if the key is asked for.
    const result = await runInProcess(['auth', 'login'], { env: { REPORTCTL_CONFIG_DIR: dir, REPORTCTL_BASE_URL: await closedUrl() }, tty: { stdin: true, stdout: true } });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^reportctl: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)$/m);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('a key saved for one service is not sent to another', () => {
  const suite = inProcessServiceForSuite();
  /** Another service, which records the key each request brought. */
  const elsewhere = () => fakeService((request, response) => json(response, 200, { total: 0, page: 1, limit: 20, data: [], key: request.headers.apikey ?? null }));

  it('refuses --base-url or REPORTCTL_BASE_URL to another service without a key of its own; an explicit key goes', async () => {
    const env = { REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-') };
    const login = await runInProcess(['auth', 'login', '--with-key-stdin', '--base-url', suite.server.url], { env, input: suite.account.apiKey });
    expect(login.code, login.stderr).toBe(0);
    const other = await elsewhere();
    for (const [args, extra, from] of [
      [['--base-url', other.url], {}, '--base-url'],
      [[], { REPORTCTL_BASE_URL: other.url }, 'REPORTCTL_BASE_URL'],
    ] as const) {
      const refused = await runInProcess(['templates', 'list', ...args], { env: { ...env, ...extra } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `reportctl: the key in profile default was saved for ${suite.server.url}; not sending it to ${other.url} (from ${from})\n` +
          `hint: give that service's key with --api-key or REPORTCTL_API_KEY, or save one in another profile: \`reportctl auth login --base-url ${other.url} --profile NAME\`\n`,
      );
    }
    expect(other.requests).toEqual([]);
    // The service the key was saved for, however its URL is written; an explicit key anywhere.
    expect((await runInProcess(['templates', 'list', '--base-url', `${suite.server.url}/`], { env })).code).toBe(0);
    expect((await runInProcess(['templates', 'list', '--base-url', other.url, '--api-key', 'other-service-key'], { env })).code).toBe(0);
    // As `serve --exec` gives its command: the URL and the key both from the environment.
    expect((await runInProcess(['templates', 'list'], { env: { ...env, REPORTCTL_BASE_URL: other.url, REPORTCTL_API_KEY: 'env-service-key' } })).code).toBe(0);
    expect(other.requests).toHaveLength(2);
  });
});

const suite = inProcessServiceForSuite();
const key = () => suite.account.apiKey;

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
});
