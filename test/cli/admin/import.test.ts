import { describe } from 'vitest';
import { registerAdminImport } from '../../../src/cli/commands/admin/import.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('admin import flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminImport(program.command('admin'), deps, wrap, runF),
    [
      [['admin', 'import', '--file', 'state.json'], { options: { file: 'state.json' } }],
      [['admin', 'import', '--file', '-', '--replace', '--db', 'state.db'], { options: { file: '-', replace: true, db: 'state.db' } }],
      [['admin', 'import'], { usage: /required option '--file <path>' not specified/ }],
    ],
  );
});
