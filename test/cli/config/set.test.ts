import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, afterEach, beforeEach } from 'vitest';
import { registerConfigSet } from '../../../src/cli/commands/config/set.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runInProcess, inProcessServiceForSuite } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { configFile, readConfig } from './support.js';

describe('config set flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerConfigSet(program.command('config'), deps, wrap, runF),
    [
      [['config', 'set', 'base-url', 'http://127.0.0.1:4747'], { options: {}, args: ['base-url', 'http://127.0.0.1:4747'] }],
      [['--profile', 'field', 'config', 'set', 'language', 'es'], { options: { profile: 'field' }, args: ['language', 'es'] }],
      [['config', 'set', 'colour', 'never'], { usage: /value 'colour' is invalid for argument 'key'\. Valid: base-url, api-key/ }],
      [['config', 'set', 'apikey', 'k'], { usage: /value 'apikey' is invalid for argument 'key'\. did you mean api-key\? Valid:/ }],
      [['config', 'set', 'language'], { usage: /missing required argument 'value'/ }],
    ],
  );
});

describe('config set api-key checks the shape of the key', () => {
  const WHOLE = `rctl_${'A1b2-_'.repeat(7)}x`;

  it('refuses a malformed key with exit 2 and saves nothing', async () => {
    const dir = tempDir('reportctl-config-');
    for (const [key, message] of [
      ['foo', 'api-key: a key is 16 to 512 visible ASCII characters, with no spaces'],
      ['two words but long enough', 'api-key: a key is 16 to 512 visible ASCII characters, with no spaces'],
      [WHOLE.slice(0, -1), 'api-key: not a whole key (`rctl_` and 43 letters, digits, `-` or `_`; this one has 42 after the prefix)'],
      [`${WHOLE}=`, 'api-key: not a whole key (`rctl_` and 43 letters, digits, `-` or `_`; this one has 44 after the prefix)'],
    ]) {
      const result = await runInProcess(['config', 'set', 'api-key', key!], { env: { REPORTCTL_CONFIG_DIR: dir } });
      expect(result.code, key).toBe(2);
      expect(result.stderr).toBe(`reportctl: ${message}\nhint: copy the whole key; prefer \`reportctl auth login\`, which also checks it with the service\n`);
    }
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it("takes a whole local key, and another service's key of any visible ASCII", async () => {
    const dir = tempDir('reportctl-config-');
    for (const key of [WHOLE, 'sk.live/0123456789+ABCDEF=']) {
      expect((await runInProcess(['config', 'set', 'api-key', key], { env: { REPORTCTL_CONFIG_DIR: dir } })).code, key).toBe(0);
    }
  });
});

const suite = inProcessServiceForSuite();
const key = () => suite.account.apiKey;

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
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the config folder under umask 000', () => {
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0o000);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('config set creates the missing folders 0700 and the file 0600', async () => {
    const root = tempDir('reportctl-umask-');
    const dir = join(root, 'home', 'reportctl');
    const result = await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:4747'], { env: { REPORTCTL_CONFIG_DIR: dir } });
    expect(result.code, result.stderr).toBe(0);
    expect(modeOf(dir).toString(8)).toBe('700');
    expect(modeOf(join(root, 'home')).toString(8)).toBe('700');
    expect(modeOf(join(dir, 'config.json')).toString(8)).toBe('600');
  });
});
