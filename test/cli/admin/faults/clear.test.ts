import { describe } from 'vitest';
import { registerAdminFaultsClear } from '../../../../src/cli/commands/admin/faults/clear.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin faults clear flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminFaultsClear(program.command('admin').command('faults'), deps, wrap, runF),
    [
      [['admin', 'faults', 'clear'], { options: {} }],
      [['admin', 'faults', 'clear', '--db', 'state.db'], { options: { db: 'state.db' } }],
      [['admin', 'faults', 'clear', 'all'], { usage: /too many arguments/ }],
    ],
  );
});
