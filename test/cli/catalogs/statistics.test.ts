import { describe } from 'vitest';
import { registerCatalogsStatistics } from '../../../src/cli/commands/catalogs/statistics.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('catalogs statistics flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsStatistics(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'statistics'], { options: {} }],
      [['catalogs', 'statistics', '--json', '-v'], { options: { json: true, verbose: true } }],
      [['catalogs', 'statistics', '--analysis-type', 'counting'], { usage: /unknown option '--analysis-type'/ }],
    ],
  );
});
