import { describe } from 'vitest';
import { registerAdminAccountsList } from '../../../../src/cli/commands/admin/accounts/list.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin accounts list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminAccountsList(program.command('admin').command('accounts'), deps, wrap, runF),
    [
      [['admin', 'accounts', 'list'], { options: {} }],
      [['admin', 'accounts', 'list', '--db', ':memory:', '--json'], { options: { db: ':memory:', json: true } }],
      [['admin', 'accounts', 'list', '--all'], { usage: /unknown option '--all'/ }],
    ],
  );
});
