import { describe } from 'vitest';
import { registerCatalogsViDefaults } from '../../../src/cli/commands/catalogs/vi-defaults.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('catalogs vi-defaults flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsViDefaults(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'vi-defaults'], { options: {} }],
      [['catalogs', 'vegetation-index-defaults', '--json'], { options: { json: true } }],
      [['catalogs', 'vi-defaults', 'NDVI'], { usage: /too many arguments/ }],
    ],
  );
});
