import { describe } from 'vitest';
import { registerTemplatesPresets } from '../../../src/cli/commands/templates/presets.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates presets flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPresets(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'presets'], { options: {} }],
      [['templates', 'presets', '--all', '--wide', '--json'], { options: { all: true, wide: true, json: true } }],
      [['templates', 'presets', '--limit', '5', '--page', '3'], { options: { limit: 5, page: 3 } }],
      [['templates', 'presets', '--limit', 'many'], { usage: /--limit.*expected a whole number/ }],
      [['templates', 'presets', 'counting'], { usage: /too many arguments/ }],
    ],
  );
});
