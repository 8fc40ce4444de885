import { describe } from 'vitest';
import { registerAuthStatus } from '../../../src/cli/commands/auth/status.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('auth status flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAuthStatus(program.command('auth'), deps, wrap, runF),
    [
      [['auth', 'status'], { options: {} }],
      [['auth', 'status', '--json', '--api-key', 'rctl_x'], { options: { json: true, apiKey: 'rctl_x' } }],
      [['auth', 'status', '--api-key'], { usage: /option '--api-key <key>' argument missing/ }],
    ],
  );
});
