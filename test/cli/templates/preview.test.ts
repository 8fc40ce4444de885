import { describe } from 'vitest';
import { registerTemplatesPreview } from '../../../src/cli/commands/templates/preview.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates preview flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPreview(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'preview', 'abc123'], { options: {}, args: ['abc123'] }],
      [['templates', 'preview', '--file', 't.json', '--orientation', 'landscape', '--out', 'page.png', '--width', '800'], { options: { file: 't.json', orientation: 'landscape', out: 'page.png', width: 800 }, args: [undefined] }],
      [['templates', 'preview', '-', '-o', 'page.svg'], { options: { out: 'page.svg' }, args: ['-'] }],
      [['templates', 'preview', 'abc123', '--orientation', 'landscap'], { usage: /--orientation.*did you mean landscape\?/ }],
      [['templates', 'preview', 'abc123', '--width', '8'], { usage: /--width.*expected a whole number from 16 to 4096/ }],
      [['templates', 'preview', 'abc123', '--width', '5000'], { usage: /--width.*expected a whole number from 16 to 4096/ }],
    ],
  );
});
