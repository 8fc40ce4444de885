import { describe } from 'vitest';
import { registerConfigSet } from '../../../src/cli/commands/config/set.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('config set flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerConfigSet(program.command('config'), deps, wrap, runF),
    [
      [['config', 'set', 'base-url', 'http://127.0.0.1:4747'], { options: {}, args: ['base-url', 'http://127.0.0.1:4747'] }],
      [['--profile', 'field', 'config', 'set', 'language', 'es'], { options: { profile: 'field' }, args: ['language', 'es'] }],
      [['config', 'set', 'colour', 'never'], { usage: /value 'colour' is invalid for argument 'key'\. Allowed choices are base-url, api-key/ }],
      [['config', 'set', 'language'], { usage: /missing required argument 'value'/ }],
    ],
  );
});
