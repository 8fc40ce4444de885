import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerConfigUse } from '../../../src/cli/commands/config/use.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';

describe('config use flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerConfigUse(program.command('config'), deps, wrap, runF),
    [
      [['config', 'use', 'field'], { options: {}, args: ['field'] }],
      [['config', 'use', 'staging', '--create'], { options: { create: true }, args: ['staging'] }],
      [['config', 'use'], { usage: /missing required argument 'profile'/ }],
      [['config', 'use', 'field', '--new'], { usage: /unknown option '--new'/ }],
    ],
  );
});

describe('a profile named but not in the config file', () => {
  const suite = inProcessServiceForSuite();
  /** A config file with the profile `staging` pointing at the service. */
  async function withStaging(): Promise<Record<string, string>> {
    const env = { REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-') };
    expect((await runInProcess(['config', 'set', 'base-url', suite.server.url, '--profile', 'staging'], { env })).code).toBe(0);
    return env;
  }

  it('is a usage error naming the closest profile, from --profile or REPORTCTL_PROFILE, before any request', async () => {
    const env = await withStaging();
    for (const [args, extra, chosenBy] of [
      [['templates', 'list', '--profile', 'stagin'], {}, '--profile'],
      [['templates', 'list'], { REPORTCTL_PROFILE: 'stagin' }, 'REPORTCTL_PROFILE'],
      [['config', 'get', 'base-url', '--profile', 'stagin'], {}, '--profile'],
      [['config', 'list'], { REPORTCTL_PROFILE: 'stagin' }, 'REPORTCTL_PROFILE'],
    ] as const) {
      const result = await runInProcess([...args], { env: { ...env, ...extra } });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `reportctl: no profile "stagin"; did you mean "staging"?\nhint: ${chosenBy} names it; profiles: default, staging; \`reportctl config use --create stagin\` starts a new one\n`,
      );
    }
    // The profile that exists, and `default`, which always does, still work.
    expect((await runInProcess(['templates', 'list', '--profile', 'staging', '--api-key', suite.account.apiKey], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'get', 'base-url', '--profile', 'default'], { env })).stdout).toBe('http://127.0.0.1:4747\n');
  });

  it('`config set` and `auth login` still start one', async () => {
    const env = await withStaging();
    const login = await runInProcess(['auth', 'login', '--with-key-stdin', '--profile', 'field', '--base-url', suite.server.url], { env, input: suite.account.apiKey });
    expect(login.code).toBe(0);
    expect((await runInProcess(['config', 'set', 'language', 'es', '--profile', 'lab'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'list', '--json'], { env })).stdout).toContain('"profiles":["staging","field","lab"]');
    expect((await runInProcess(['templates', 'list', '--profile', 'field'], { env })).code).toBe(0);
  });
});

describe('config use', () => {
  it('an unknown profile is a usage error with the closest name, and changes nothing', async () => {
    const dir = tempDir();
    const env = { REPORTCTL_CONFIG_DIR: dir };
    expect((await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:4999'], { env })).code).toBe(0);
    const file = join(dir, 'config.json');
    const before = readFileSync(file, 'utf8');
    const typo = await runInProcess(['config', 'use', 'defualt'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no profile "defualt"; did you mean "default"\?/);
    expect(typo.stderr).toMatch(/--create defualt/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('--create starts a profile, which is then known', async () => {
    const dir = tempDir();
    const env = { REPORTCTL_CONFIG_DIR: dir };
    expect((await runInProcess(['config', 'use', '--create', 'staging'], { env })).code).toBe(0);
    expect(existsSync(join(dir, 'config.json'))).toBe(true);
    const typo = await runInProcess(['config', 'use', 'stagin'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean "staging"\?/);
    expect((await runInProcess(['config', 'use', 'default'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'use', 'staging'], { env })).code).toBe(0);
  });
});
