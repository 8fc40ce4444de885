import { describe } from 'vitest';
import { registerAdminQueuesCreate } from '../../../../src/cli/commands/admin/queues/create.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin queues create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueuesCreate(program.command('admin').command('queues'), deps, wrap, runF),
    [
      [['admin', 'queues', 'create', '--account', 'acc-1', '--name', 'Night'], { options: { account: 'acc-1', name: 'Night', step: [] } }],
      [['admin', 'queues', 'create', '--account', 'acc-1', '--name', 'Night', '--step', 'lot-1:counting', '--step', 'lot-2:path'], { options: { account: 'acc-1', name: 'Night', step: ['lot-1:counting', 'lot-2:path'] } }],
      [['admin', 'queues', 'create', '--account', 'acc-1'], { usage: /required option '--name <name>' not specified/ }],
      [['admin', 'queues', 'create', '--name', 'Night'], { usage: /required option '--account <id>' not specified/ }],
    ],
  );
});
