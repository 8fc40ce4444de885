import { describe } from 'vitest';
import { registerTemplatesList } from '../../../src/cli/commands/templates/list.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesList(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'list'], { options: {} }],
      [['templates', 'ls', '--analysis-type', 'counting', '--report-type', 'plant_count', '--report-category', 'general'], { options: { analysisType: 'counting', reportType: 'plant_count', reportCategory: 'general' } }],
      [['templates', 'list', '--page', '2', '--limit', '50', '--wide'], { options: { page: 2, limit: 50, wide: true } }],
      [['templates', 'list', '--all', '--no-wide', '--json'], { options: { all: true, wide: false, json: true } }],
      [['templates', 'list', '--analysis-type', 'countng'], { usage: /--analysis-type.*did you mean counting\?/ }],
      [['templates', 'list', '--report-category', 'vegetation'], { usage: /--report-category.*Valid: general, vegetation_index/ }],
      [['templates', 'list', '--limit', '101'], { usage: /--limit.*expected a whole number from 1 to 100/ }],
      [['templates', 'list', '--page', '0'], { usage: /--page.*expected a whole number from 1 up/ }],
      [['templates', 'list', 'extra'], { usage: /too many arguments/ }],
    ],
  );
});
