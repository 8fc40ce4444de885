// Across verbs: a refused key (401) says, for any command, where the key and base URL came from.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.js';
import { runInProcess, inProcessServiceForSuite } from '../helpers/in-process.js';

/** The trap: a stale key exported in the shell, a good one saved by `auth login`. */
describe('a 401 says where the refused key came from', () => {
  const suite = inProcessServiceForSuite();

  it('a stale REPORTCTL_API_KEY: every 401 names it, login warns, doctor says so', async () => {
    const env = { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_CONFIG_DIR: tempDir(), REPORTCTL_API_KEY: 'rctl_stale' };
    const refused = await runInProcess(['templates', 'list'], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/the key came from the environment variable REPORTCTL_API_KEY/);
    expect(refused.stderr).toMatch(/unset REPORTCTL_API_KEY/);

    const login = await runInProcess(['auth', 'login', '--with-key-stdin'], { env, input: suite.account.apiKey });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/warning: REPORTCTL_API_KEY is set and overrides the key just saved/);

    const doctor = await runInProcess(['doctor'], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/key source: REPORTCTL_API_KEY is set and overrides the key saved in profile default/);
    expect(doctor.stdout).toMatch(/unset REPORTCTL_API_KEY/);

    const unset = await runInProcess(['templates', 'list'], { env: { ...env, REPORTCTL_API_KEY: undefined } });
    expect(unset.code, unset.stderr).toBe(0);
  });

  it('a refused key from a profile, or from --api-key, is named as such', async () => {
    const env = { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_CONFIG_DIR: tempDir() };
    expect((await runInProcess(['config', 'set', 'api-key', `rctl_${'r'.repeat(43)}`], { env })).code).toBe(0);
    const fromProfile = await runInProcess(['templates', 'list'], { env });
    expect(fromProfile.code).toBe(3);
    expect(fromProfile.stderr).toMatch(/the key came from profile default in the config file \(saved there by `reportctl auth login` or `reportctl config set api-key`\)/);
    const fromFlag = await runInProcess(['templates', 'list', '--api-key', 'rctl_wrong'], { env });
    expect(fromFlag.code).toBe(3);
    expect(fromFlag.stderr).toMatch(/the key came from --api-key/);
  });

  it('login saves the base URL it checked the key against; a 401 and a refused connection say where the base URL came from', async () => {
    const env = { REPORTCTL_CONFIG_DIR: tempDir() };
    const login = await runInProcess(['auth', 'login', '--with-key-stdin'], { env: { ...env, REPORTCTL_BASE_URL: suite.server.url }, input: suite.account.apiKey });
    expect(login.code, login.stderr).toBe(0);
    // A new shell, without REPORTCTL_BASE_URL: the saved URL is used.
    const next = await runInProcess(['templates', 'list'], { env });
    expect(next.code, next.stderr).toBe(0);

    const refused = await runInProcess(['templates', 'list', '--api-key', 'rctl_wrong'], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`hint: the base URL ${suite.server.url} came from profile default (saved by`);
    const unreachable = await runInProcess(['templates', 'list', '--api-key', suite.account.apiKey], { env: { ...env, REPORTCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(unreachable.code).toBe(6);
    expect(unreachable.stderr).toMatch(/^hint: is the service running\? .*; the base URL http:\/\/127\.0\.0\.1:9 came from the environment variable REPORTCTL_BASE_URL$/m);
  });

  it('no key at all says how to set one', async () => {
    const result = await runInProcess(['templates', 'list'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_CONFIG_DIR: tempDir() } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/no key is set: run `reportctl auth login`/);
  });
});
