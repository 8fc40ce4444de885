import { describe } from 'vitest';
import { registerAdminAccountsCreate } from '../../../../src/cli/commands/admin/accounts/create.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin accounts create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminAccountsCreate(program.command('admin').command('accounts'), deps, wrap, runF),
    [
      [['admin', 'accounts', 'create'], { options: { templateLimit: 100 } }],
      [['admin', 'accounts', 'create', '--name', 'Agro Norte', '--template-limit', '50', '--db', 'state.db', '--json'], { options: { name: 'Agro Norte', templateLimit: 50, db: 'state.db', json: true } }],
      [['admin', 'accounts', 'create', '--template-limit', '-1'], { usage: /--template-limit.*expected a whole number from 0 up/ }],
      [['admin', 'accounts', 'create', '--db'], { usage: /option '--db <path>' argument missing/ }],
    ],
  );
});
