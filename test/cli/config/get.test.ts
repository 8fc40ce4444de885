import { describe } from 'vitest';
import { registerConfigGet } from '../../../src/cli/commands/config/get.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('config get flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerConfigGet(program.command('config'), deps, wrap, runF),
    [
      [['config', 'get', 'base-url'], { options: {}, args: ['base-url'] }],
      [['config', 'get', 'api-key', '--reveal', '--json'], { options: { reveal: true, json: true }, args: ['api-key'] }],
      [['config', 'get', 'baseurl'], { usage: /value 'baseurl' is invalid for argument 'key'\. did you mean base-url\? Valid: base-url, api-key, key-header, language\./ }],
      [['config', 'get', 'colour'], { usage: /value 'colour' is invalid for argument 'key'\. Valid: base-url, api-key, key-header, language\./ }],
      [['config', 'get'], { usage: /missing required argument 'key'/ }],
    ],
  );
});
