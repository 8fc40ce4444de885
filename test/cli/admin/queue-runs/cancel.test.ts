import { describe } from 'vitest';
import { registerAdminQueueRunsCancel } from '../../../../src/cli/commands/admin/queue-runs/cancel.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin queue-runs cancel flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueueRunsCancel(program.command('admin').command('queue-runs'), deps, wrap, runF),
    [
      [['admin', 'queue-runs', 'cancel', 'r-1'], { options: {}, args: ['r-1'] }],
      [['admin', 'queue-runs', 'cancel', 'r-1', '--db', 'state.db'], { options: { db: 'state.db' }, args: ['r-1'] }],
      [['admin', 'queue-runs', 'cancel', 'r-1', 'r-2'], { usage: /too many arguments/ }],
    ],
  );
});
