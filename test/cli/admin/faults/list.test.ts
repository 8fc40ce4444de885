import { describe } from 'vitest';
import { registerAdminFaultsList } from '../../../../src/cli/commands/admin/faults/list.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin faults list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminFaultsList(program.command('admin').command('faults'), deps, wrap, runF),
    [
      [['admin', 'faults', 'list'], { options: {} }],
      [['admin', 'faults', 'list', '--db', 'state.db', '--json'], { options: { db: 'state.db', json: true } }],
      [['admin', 'faults', 'list', '--route', 'GET /'], { usage: /unknown option '--route'/ }],
    ],
  );
});
