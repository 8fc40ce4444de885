import { describe } from 'vitest';
import { registerAdminExport } from '../../../src/cli/commands/admin/export.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('admin export flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminExport(program.command('admin'), deps, wrap, runF),
    [
      [['admin', 'export'], { options: {} }],
      [['admin', 'export', '--file', 'state.json', '--db', 'state.db'], { options: { file: 'state.json', db: 'state.db' } }],
      [['admin', 'export', '--schema'], { options: { schema: true } }],
      [['admin', 'export', 'state.json'], { usage: /too many arguments/ }],
    ],
  );
});
