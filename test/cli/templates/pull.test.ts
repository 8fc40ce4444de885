import { describe } from 'vitest';
import { registerTemplatesPull } from '../../../src/cli/commands/templates/pull.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates pull flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPull(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'pull', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'pull', 'out', '--json'], { options: { json: true }, args: ['out'] }],
      [['templates', 'pull'], { usage: /missing required argument 'dir'/ }],
      [['templates', 'pull', 'out', '--prune'], { usage: /unknown option '--prune'/ }],
    ],
  );
});
