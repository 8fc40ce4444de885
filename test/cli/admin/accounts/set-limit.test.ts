import { describe } from 'vitest';
import { registerAdminAccountsSetLimit } from '../../../../src/cli/commands/admin/accounts/set-limit.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin accounts set-limit flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminAccountsSetLimit(program.command('admin').command('accounts'), deps, wrap, runF),
    [
      [['admin', 'accounts', 'set-limit', 'acc-1', '500'], { options: {}, args: ['acc-1', 500] }],
      [['admin', 'accounts', 'set-limit', 'acc-1', '0', '--db', 'state.db'], { options: { db: 'state.db' }, args: ['acc-1', 0] }],
      [['admin', 'accounts', 'set-limit', 'acc-1', 'lots'], { usage: /value 'lots' is invalid for argument 'limit'\. expected a whole number from 0 up/ }],
      [['admin', 'accounts', 'set-limit', 'acc-1'], { usage: /missing required argument 'limit'/ }],
    ],
  );
});
