import { describe } from 'vitest';
import { registerTemplatesCreate } from '../../../src/cli/commands/templates/create.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesCreate(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'create'], { options: {} }],
      [['templates', 'create', '--file', 'template.json'], { options: { file: 'template.json' } }],
      [['templates', 'create', '-f', '-', '--json'], { options: { file: '-', json: true } }],
      [['templates', 'create', '--from-preset', 'p1', '--name', 'Stand count'], { options: { fromPreset: 'p1', name: 'Stand count' } }],
      [['templates', 'create', '--from-preset'], { usage: /option '--from-preset <id>' argument missing/ }],
      [['templates', 'create', '--preset', 'p1'], { usage: /unknown option '--preset'/ }],
      [['templates', 'create', 'template.json'], { usage: /too many arguments/ }],
    ],
  );
});
