import { describe } from 'vitest';
import { registerAdminKeysRevoke } from '../../../../src/cli/commands/admin/keys/revoke.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin keys revoke flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminKeysRevoke(program.command('admin').command('keys'), deps, wrap, runF),
    [
      [['admin', 'keys', 'revoke', 'rctl_abc'], { options: {}, args: ['rctl_abc'] }],
      [['admin', 'keys', 'revoke', 'rctl_abc', '--db', 'state.db'], { options: { db: 'state.db' }, args: ['rctl_abc'] }],
      [['admin', 'keys', 'revoke'], { usage: /missing required argument 'key'/ }],
    ],
  );
});
