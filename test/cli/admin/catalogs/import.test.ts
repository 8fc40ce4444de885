import { describe } from 'vitest';
import { registerAdminCatalogsImport } from '../../../../src/cli/commands/admin/catalogs/import.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin catalogs import flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminCatalogsImport(program.command('admin').command('catalogs'), deps, wrap, runF),
    [
      [['admin', 'catalogs', 'import', '--file', 'catalogs.json'], { options: { file: 'catalogs.json' } }],
      [['admin', 'catalogs', 'import', '--file', '-', '--db', 'state.db', '--json'], { options: { file: '-', db: 'state.db', json: true } }],
      [['admin', 'catalogs', 'import'], { usage: /required option '--file <path>' not specified/ }],
    ],
  );
});
