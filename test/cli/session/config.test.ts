// session/config.ts: the config file every command reads, without loading conf, in the place conf writes it.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFilePath, openConfig, readConfig } from '../../../src/cli/session/config.js';
import { tempDir } from '../../helpers/server.js';

/** Commands that only read settings read the file themselves; conf still writes it. */
describe('the config file without conf', () => {
  const saved = process.env.XDG_CONFIG_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  it('is the very file conf uses, in the default place and under REPORTCTL_CONFIG_DIR', async () => {
    // conf finds its directory through env-paths, which reads process.env.
    const home = tempDir('reportctl-xdg-');
    process.env.XDG_CONFIG_HOME = home;
    expect(configFilePath({ XDG_CONFIG_HOME: home })).toBe((await openConfig({})).path);
    expect(configFilePath({ XDG_CONFIG_HOME: home })).toBe(join(home, 'reportctl', 'config.json'));
    const dir = tempDir('reportctl-config-');
    expect(configFilePath({ REPORTCTL_CONFIG_DIR: dir })).toBe((await openConfig({ REPORTCTL_CONFIG_DIR: dir })).path);
  });

  it('other platforms follow env-paths', () => {
    expect(configFilePath({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Preferences/reportctl/config.json');
    expect(configFilePath({}, 'linux', '/home/ana')).toBe('/home/ana/.config/reportctl/config.json');
  });

  it('reads what conf wrote, and no file is an empty config', async () => {
    const env = { REPORTCTL_CONFIG_DIR: join(tempDir('reportctl-config-'), 'nested') };
    expect(readConfig(env)).toEqual({ path: configFilePath(env), config: {} });
    const written = { currentProfile: 'ci', profiles: { ci: { baseUrl: 'http://127.0.0.1:1', apiKey: 'rctl_x' } } };
    (await openConfig(env)).write(written);
    expect(readConfig(env).config).toEqual(written);
    expect(statSync(configFilePath(env)).mode & 0o777).toBe(0o600);
  });
});

// Issue 28, item 9: conf creates its folder with the umask's mode, 0777 under umask 000, and
// whoever can write to the folder can swap the file that holds the keys.

