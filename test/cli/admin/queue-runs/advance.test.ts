import { describe } from 'vitest';
import { registerAdminQueueRunsAdvance } from '../../../../src/cli/commands/admin/queue-runs/advance.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin queue-runs advance flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueueRunsAdvance(program.command('admin').command('queue-runs'), deps, wrap, runF),
    [
      [['admin', 'queue-runs', 'advance', 'r-1'], { options: {}, args: ['r-1'] }],
      [['admin', 'queue-runs', 'advance', 'r-1', '--db', 'state.db', '--json'], { options: { db: 'state.db', json: true }, args: ['r-1'] }],
      [['admin', 'queue-runs', 'advance'], { usage: /missing required argument 'run-id'/ }],
    ],
  );
});
