import { describe } from 'vitest';
import { registerAdminReset } from '../../../src/cli/commands/admin/reset.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('admin reset flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminReset(program.command('admin'), deps, wrap, runF),
    [
      [['admin', 'reset'], { options: {} }],
      [['admin', 'reset', '--yes', '--db', 'state.db'], { options: { yes: true, db: 'state.db' } }],
      [['admin', 'reset', '-y', '--no-input'], { options: { yes: true, input: false } }],
      [['admin', 'reset', '--force'], { usage: /unknown option '--force'/ }],
    ],
  );
});
