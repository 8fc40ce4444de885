import { describe } from 'vitest';
import { registerAuthLogin } from '../../../src/cli/commands/auth/login.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('auth login flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAuthLogin(program.command('auth'), deps, wrap, runF),
    [
      [['auth', 'login'], { options: {} }],
      [['auth', 'login', '--with-key-stdin', '--base-url', 'http://127.0.0.1:4747'], { options: { withKeyStdin: true, baseUrl: 'http://127.0.0.1:4747' } }],
      [['--no-input', 'auth', 'login'], { options: { input: false } }],
      [['auth', 'login', '--with-token'], { usage: /unknown option '--with-token'/ }],
    ],
  );
});
