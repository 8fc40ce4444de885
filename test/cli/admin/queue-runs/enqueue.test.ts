import { describe } from 'vitest';
import { registerAdminQueueRunsEnqueue } from '../../../../src/cli/commands/admin/queue-runs/enqueue.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin queue-runs enqueue flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueueRunsEnqueue(program.command('admin').command('queue-runs'), deps, wrap, runF),
    [
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1'], { options: { queue: 'q-1' } }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--name', 'Tuesday', '--estimated-ha', '12.5', '--fail-at-step', '2'], { options: { queue: 'q-1', name: 'Tuesday', estimatedHa: 12.5, failAtStep: 2 } }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--estimated-ha', '-3'], { usage: /--estimated-ha: expected a number of hectares/ }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--fail-at-step', '0'], { usage: /--fail-at-step.*expected a whole number from 1 up/ }],
      [['admin', 'queue-runs', 'enqueue'], { usage: /required option '--queue <id>' not specified/ }],
    ],
  );
});
