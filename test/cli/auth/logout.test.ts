import { describe } from 'vitest';
import { registerAuthLogout } from '../../../src/cli/commands/auth/logout.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('auth logout flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAuthLogout(program.command('auth'), deps, wrap, runF),
    [
      [['auth', 'logout'], { options: {} }],
      [['auth', 'logout', '--profile', 'field'], { options: { profile: 'field' } }],
      [['auth', 'logout', 'field'], { usage: /too many arguments/ }],
    ],
  );
});
