import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerConfigSet } from '../../../src/cli/commands/config/set.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';

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
