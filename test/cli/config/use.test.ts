import { describe } from 'vitest';
import { registerConfigUse } from '../../../src/cli/commands/config/use.js';
import { itParsesFlags } from '../../helpers/flags.js';

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
