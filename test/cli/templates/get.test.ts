import { describe } from 'vitest';
import { registerTemplatesGet } from '../../../src/cli/commands/templates/get.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates get flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesGet(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'get', '3c44560e'], { options: {}, args: ['3c44560e'] }],
      [['templates', 'get', 'Crop vigor (NDVI)', '--json'], { options: { json: true }, args: ['Crop vigor (NDVI)'] }],
      [['--base-url', 'http://127.0.0.1:4747', '--api-key', 'rctl_x', 'templates', 'get', 'abc123'], { options: { baseUrl: 'http://127.0.0.1:4747', apiKey: 'rctl_x' }, args: ['abc123'] }],
      [['templates', 'get'], { usage: /missing required argument 'id'/ }],
      [['templates', 'get', 'abc123', '--yes'], { usage: /unknown option '--yes'/ }],
    ],
  );
});
