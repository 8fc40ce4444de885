import { describe } from 'vitest';
import { registerCatalogsReportTypes } from '../../../src/cli/commands/catalogs/report-types.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('catalogs report-types flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsReportTypes(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'report-types'], { options: {} }],
      [['catalogs', 'report-types', '--analysis-type', 'replanting', '--json'], { options: { analysisType: 'replanting', json: true } }],
      [['catalogs', 'report-types', '--analysis-type', 'paths'], { usage: /--analysis-type.*did you mean path\?/ }],
      [['catalogs', 'report-types', 'counting'], { usage: /too many arguments/ }],
    ],
  );
});
