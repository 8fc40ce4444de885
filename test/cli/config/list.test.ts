import { describe } from 'vitest';
import { registerConfigList } from '../../../src/cli/commands/config/list.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('config list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerConfigList(program.command('config'), deps, wrap, runF),
    [
      [['config', 'list'], { options: {} }],
      [['config', 'ls', '--profile', 'field', '--json'], { options: { profile: 'field', json: true } }],
      [['config', 'list', '--reveal'], { usage: /unknown option '--reveal'/ }],
    ],
  );
});
