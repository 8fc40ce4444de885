import { describe } from 'vitest';
import { registerAdminSeed } from '../../../src/cli/commands/admin/seed.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('admin seed flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminSeed(program.command('admin'), deps, wrap, runF),
    [
      [['admin', 'seed', '--account', 'acc-1', '--file', 'fixtures.json'], { options: { account: 'acc-1', file: 'fixtures.json' } }],
      [['admin', 'seed', '--account', 'acc-1', '--file', '-', '--db', 'state.db'], { options: { account: 'acc-1', file: '-', db: 'state.db' } }],
      [['admin', 'seed', '--file', 'fixtures.json'], { usage: /required option '--account <id>' not specified/ }],
      [['admin', 'seed', '--account', 'acc-1'], { usage: /required option '--file <path>' not specified/ }],
    ],
  );
});
