import { describe } from 'vitest';
import { registerTemplatesDelete } from '../../../src/cli/commands/templates/delete.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates delete flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDelete(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'delete', 'abc123'], { options: {}, args: ['abc123'] }],
      [['templates', 'delete', 'abc123', '--yes'], { options: { yes: true }, args: ['abc123'] }],
      [['templates', 'rm', 'Crop vigor', '-y', '--json'], { options: { yes: true, json: true }, args: ['Crop vigor'] }],
      [['--no-input', '--profile', 'field', 'templates', 'delete', 'abc123'], { options: { input: false, profile: 'field' }, args: ['abc123'] }],
      [['templates', 'delete'], { usage: /missing required argument 'id'/ }],
      [['templates', 'delete', 'a', 'b'], { usage: /too many arguments/ }],
      [['templates', 'delete', 'abc123', '--force'], { usage: /unknown option '--force'/ }],
    ],
  );
});
