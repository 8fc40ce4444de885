import { describe } from 'vitest';
import { registerTemplatesEdit } from '../../../src/cli/commands/templates/edit.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates edit flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesEdit(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'edit', 'abc123'], { options: {}, args: ['abc123'] }],
      [['templates', 'edit', 'abc123', '--json', '--no-color'], { options: { json: true, color: false }, args: ['abc123'] }],
      [['templates', 'edit'], { usage: /missing required argument 'id'/ }],
      [['templates', 'edit', 'abc123', '--editor', 'vi'], { usage: /unknown option '--editor'/ }],
    ],
  );
});
