import { describe, expect, it } from 'vitest';
import { registerDoctor, nodeVersionCheck, runDoctor } from '../../../src/cli/commands/doctor/doctor.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runInProcess, inProcessServiceForSuite, mockAgent, testDeps } from '../../helpers/in-process.js';
import { closedUrl, tempDir } from '../../helpers/server.js';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../../src/cli/cmdutil/context.js';

describe('doctor flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerDoctor(program, deps, wrap, runF),
    [
      [['doctor'], { options: {} }],
      [['doctor', '--json', '--profile', 'field'], { options: { json: true, profile: 'field' } }],
      [['doctor', '--fix'], { usage: /unknown option '--fix'/ }],
    ],
  );
});

describe('doctor and the profile', () => {
  it('reports a profile named but not in the config file, with the closest name, and fails', async () => {
    const env = { REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-'), REPORTCTL_BASE_URL: await closedUrl() };
    expect((await runInProcess(['config', 'use', '--create', 'staging'], { env })).code).toBe(0);
    const result = await runInProcess(['doctor', '--json'], { env: { ...env, REPORTCTL_PROFILE: 'stagin' } });
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as { name: string; status: string; detail: string; fix?: string }[];
    expect(checks.find((check) => check.name === 'profile')).toEqual({
      name: 'profile',
      status: 'fail',
      detail: 'no profile "stagin"; did you mean "staging"?; the checks below use the defaults',
      fix: 'REPORTCTL_PROFILE names it; profiles: default, staging; `reportctl config use --create stagin` starts a new one',
    });
    const fine = await runInProcess(['doctor', '--json'], { env: { ...env, REPORTCTL_PROFILE: 'staging' } });
    expect((JSON.parse(fine.stdout) as { name: string }[]).map((check) => check.name)).not.toContain('profile');
  });
});

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const suite = inProcessServiceForSuite();

/** Where the MockAgent answers; nothing listens there. */
const SERVICE = 'http://service.test:4747';

const checksOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as Check[]).map((check) => [check.name, check]));

describe('reportctl doctor', () => {
  it('passes with a reachable service and a valid key', async () => {
    const result = await runInProcess(['doctor', '--json'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey } });
    expect(result.code).toBe(0);
    const checks = checksOf(result.stdout);
    // Node 20, this machine's, is past its end of life: a warning, which does not fail doctor.
    expect(checks.node!.status).not.toBe('fail');
    expect(checks.service!.status).toBe('ok');
    expect(checks['api key']!.status).toBe('ok');
    expect(checks.clock!.status).toBe('ok');
  });

  it('fails on a refused key and says how to fix it', async () => {
    const result = await runInProcess(['doctor'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: 'rctl_not-a-key' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL api key/);
    expect(result.stdout).toMatch(/fix: .*auth login/);
  });

  it('fails on an unreachable service, naming the URL', async () => {
    const result = await runInProcess(['doctor', '--json'], { env: { REPORTCTL_BASE_URL: 'http://127.0.0.1:9', REPORTCTL_API_KEY: 'x' } });
    expect(result.code).toBe(1);
    const checks = checksOf(result.stdout);
    expect(checks.service!.status).toBe('fail');
    expect(checks.service!.detail).toContain('127.0.0.1:9');
  });

  it('flags a config file others can read', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { baseUrl: suite.server.url, apiKey: suite.account.apiKey } } }));
    chmodSync(file, 0o644);
    const result = await runInProcess(['doctor', '--json'], { env: { REPORTCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(1);
    const checks = checksOf(result.stdout);
    expect(checks['config file']!.status).toBe('fail');
    expect(checks['config file']!.fix).toBe(`chmod 600 ${file}`);
    // The profile's key and URL were used: the service check passed.
    expect(checks['api key']!.status).toBe('ok');
  });

  // Issue 28, item 9: a folder others can write to lets them replace the file that holds the key.
  it.skipIf(process.platform === 'win32')('flags a config folder others can write to (fail) or read (warn)', async () => {
    const folderCheck = async (mode: number) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: suite.server.url, apiKey: suite.account.apiKey } } }), { mode: 0o600 });
      chmodSync(dir, mode);
      const result = await runInProcess(['doctor', '--json'], { env: { REPORTCTL_CONFIG_DIR: dir } });
      return { code: result.code, check: checksOf(result.stdout)['config folder']!, dir };
    };
    const open = await folderCheck(0o777);
    expect(open.code).toBe(1);
    expect(open.check.status).toBe('fail');
    expect(open.check.detail).toContain('(mode 777)');
    expect(open.check.fix).toBe(`chmod 700 ${open.dir}`);
    const readable = await folderCheck(0o755);
    expect(readable.code).toBe(0);
    expect(readable.check.status).toBe('warn');
    expect((await folderCheck(0o700)).check.status).toBe('ok');
  });

  // Issue 17, item 6: only a 2xx proves the key. A service that limits per address answers
  // 429 before it looks at the key, so an unknown key was reported accepted.
  it('a 429 means the key was not checked: fail, exit 1, never "accepted"', async () => {
    const agent = mockAgent();
    // One request: doctor does not wait out the limit (a second one would find no answer).
    agent
      .get(SERVICE)
      .intercept({ method: 'GET', path: '/api/v2/templates?limit=1' })
      .reply(429, { error: 'RATE_LIMITED', message: 'too many requests' }, { headers: { 'content-type': 'application/json', 'retry-after': '42' } });
    const result = await runInProcess(['doctor', '--json'], { env: { REPORTCTL_BASE_URL: SERVICE, REPORTCTL_API_KEY: 'rctl_unknown' }, dispatcher: agent });
    expect(result.code).toBe(1);
    const key = checksOf(result.stdout)['api key']!;
    expect(key.status).toBe('fail');
    expect(key.detail).toBe('not checked: the service is rate limiting requests (it asks to wait 42 s)');
  });

  it.each([301, 302, 304, 307])('a %i is not success: the key was not checked, exit 1', async (status) => {
    const agent = mockAgent();
    agent
      .get(SERVICE)
      .intercept({ method: 'GET', path: '/api/v2/templates?limit=1' })
      .reply(status, '', { headers: { location: 'https://example.invalid/api/v2/templates' } });
    const result = await runInProcess(['doctor'], { env: { REPORTCTL_BASE_URL: SERVICE, REPORTCTL_API_KEY: 'rctl_unknown' }, dispatcher: agent });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('accepted');
    expect(result.stdout).toContain(`FAIL api key: not checked: the service answered ${status}, a redirect to https://example.invalid/api/v2/templates`);
  });

  it('notes a Node.js line past its end of life, by the clock it is given', async () => {
    const at = (now: string) =>
      testDeps({
        env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey, REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-') },
        clock: { ...systemClock, now: () => Date.parse(now) },
        nodeVersion: '20.20.2',
      });
    const late = at('2026-11-23T12:00:00Z');
    expect(await runDoctor({}, late.deps)).toBe(0);
    expect(late.stdout()).toContain('warn node: Node.js 20.20.2 is past its end of life (2026-04-30): it gets no more security fixes\n    fix: install Node.js 22 or 24 (maintained LTS)\n');
    const inTime = at('2026-04-29T23:59:59Z');
    expect(await runDoctor({}, inTime.deps)).toBe(0);
    expect(inTime.stdout()).toContain('ok   node: Node.js 20.20.2\n');
  });
});

describe('doctor: the Node.js check', () => {
  const at = (date: string) => Date.parse(`${date}T00:00:00Z`);
  it('fails below the minimum version, end of life or not', () => {
    expect(nodeVersionCheck('20.18.0', at('2026-01-01')).status).toBe('fail');
    expect(nodeVersionCheck('v18.20.8', at('2026-11-23')).status).toBe('fail');
  });
  it('warns from the first day past a line\'s end of life and names the maintained LTS lines', () => {
    expect(nodeVersionCheck('20.20.2', at('2026-04-29')).status).toBe('ok');
    expect(nodeVersionCheck('20.20.2', at('2026-04-30'))).toMatchObject({ status: 'warn', fix: 'install Node.js 22 or 24 (maintained LTS)' });
    expect(nodeVersionCheck('v25.1.0', at('2026-11-23'))).toMatchObject({ status: 'warn', detail: expect.stringContaining('(2026-06-01)') });
    expect(nodeVersionCheck('22.23.3', at('2027-05-01'))).toMatchObject({ status: 'warn', fix: 'install Node.js 24 (maintained LTS)' });
  });
  it('says nothing of lines still maintained or newer than its table', () => {
    expect(nodeVersionCheck('22.23.3', at('2026-11-23')).status).toBe('ok');
    expect(nodeVersionCheck('24.21.0', at('2026-11-23')).status).toBe('ok');
    expect(nodeVersionCheck('30.0.0', at('2026-11-23')).status).toBe('ok');
  });
});
