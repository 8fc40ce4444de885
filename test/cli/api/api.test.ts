import { describe } from 'vitest';
import { registerApi } from '../../../src/cli/commands/api.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('api flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerApi(program, deps, wrap, runF),
    [
      [['api', 'GET', 'queues'], { options: { field: [] }, args: ['GET', 'queues'] }],
      [['api', 'GET', '/api/v2/templates', '-F', 'analysisType=counting', '--field', 'limit=5'], { options: { field: ['analysisType=counting', 'limit=5'] }, args: ['GET', '/api/v2/templates'] }],
      // --input is the body file; the global --no-input stays the prompt switch.
      [['api', 'PUT', 'templates/abc', '--input', 'template.json'], { options: { field: [], inputFile: 'template.json' }, args: ['PUT', 'templates/abc'] }],
      [['--no-input', 'api', 'GET', 'queues'], { options: { field: [], input: false }, args: ['GET', 'queues'] }],
      [['api', 'GET'], { usage: /missing required argument 'path'/ }],
      [['api', 'GET', 'queues', '--header', 'x'], { usage: /unknown option '--header'/ }],
    ],
  );
});
