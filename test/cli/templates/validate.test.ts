import { describe } from 'vitest';
import { registerTemplatesValidate } from '../../../src/cli/commands/templates/validate.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates validate flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesValidate(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'validate', 'a.json'], { options: {}, args: [['a.json']] }],
      [['templates', 'validate', 'a.json', 'b.json', '--json'], { options: { json: true }, args: [['a.json', 'b.json']] }],
      [['templates', 'validate', '--file', '-', '--offline'], { options: { file: '-', offline: true }, args: [[]] }],
      [['templates', 'validate'], { options: {}, args: [[]] }],
      [['templates', 'validate', '-f'], { usage: /option '-f, --file <path>' argument missing/ }],
      [['templates', 'validate', 'a.json', '--strict'], { usage: /unknown option '--strict'/ }],
    ],
  );
});
