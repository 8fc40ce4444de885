import { describe } from 'vitest';
import { registerTemplatesReplace } from '../../../src/cli/commands/templates/replace.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates replace flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesReplace(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'replace', 'abc123', '--file', 'template.json'], { options: { file: 'template.json' }, args: ['abc123'] }],
      [['templates', 'replace', 'Crop vigor', '-f', '-', '--json'], { options: { file: '-', json: true }, args: ['Crop vigor'] }],
      [['templates', 'replace', 'abc123'], { usage: /required option '-f, --file <path>' not specified/ }],
      [['templates', 'replace', '--file', 'template.json'], { usage: /missing required argument 'id'/ }],
      [['templates', 'replace', 'abc123', '--file'], { usage: /option '-f, --file <path>' argument missing/ }],
    ],
  );
});
