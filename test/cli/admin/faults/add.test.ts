import { describe } from 'vitest';
import { registerAdminFaultsAdd } from '../../../../src/cli/commands/admin/faults/add.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin faults add flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminFaultsAdd(program.command('admin').command('faults'), deps, wrap, runF),
    [
      [['admin', 'faults', 'add', '--route', 'GET /api/v2/templates', '--status', '503', '--count', '2'], { options: { route: 'GET /api/v2/templates', status: 503, count: 2 } }],
      [['admin', 'faults', 'add', '--route', '* /api/*', '--latency', '500', '--rate', '0.5', '--account', 'acc-1'], { options: { route: '* /api/*', latency: 500, rate: 0.5, account: 'acc-1' } }],
      [['admin', 'faults', 'add', '--route', '* /api/*', '--reset-connection', '--db', 'state.db'], { options: { route: '* /api/*', resetConnection: true, db: 'state.db' } }],
      [['admin', 'faults', 'add', '--status', '503'], { usage: /required option '--route <route>' not specified/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--rate', '2'], { usage: /--rate.*expected a chance from 0 to 1/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--status', '42'], { usage: /--status.*expected a whole number from 100 to 599/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--count', '0'], { usage: /--count.*expected a whole number from 1 up/ }],
    ],
  );
});
