import { describe } from 'vitest';
import { registerTemplatesDiff } from '../../../src/cli/commands/templates/diff.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates diff flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDiff(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'diff', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--prune', '--json'], { options: { prune: true, json: true }, args: ['templates/'] }],
      [['templates', 'diff'], { usage: /missing required argument 'dir'/ }],
      [['templates', 'diff', 'templates/', '--yes'], { usage: /unknown option '--yes'/ }],
    ],
  );
});
