import { describe } from 'vitest';
import { registerCompletion } from '../../../src/cli/commands/completion/index.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('completion flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCompletion(program, deps, wrap, runF),
    [
      [['completion', 'bash'], { options: {}, args: ['bash'] }],
      [['completion', 'fish'], { options: {}, args: ['fish'] }],
      [['completion', 'powershell'], { usage: /value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish/ }],
      [['completion'], { usage: /missing required argument 'shell'/ }],
    ],
  );
  // The hidden verb the shell scripts call for ids.
  itParsesFlags(
    (program, deps, wrap, runF) => registerCompletion(program, deps, wrap, undefined, runF),
    [
      [['__complete', 'template-ids'], { options: {}, args: ['template-ids'] }],
      [['__complete', 'run-ids', '--names'], { options: { names: true }, args: ['run-ids'] }],
      [['__complete'], { usage: /missing required argument 'kind'/ }],
    ],
  );
});
