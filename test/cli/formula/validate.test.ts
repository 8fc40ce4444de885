import { describe } from 'vitest';
import { registerFormulaValidate } from '../../../src/cli/commands/formula/validate.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('formula validate flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaValidate(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'validate', 'NIR / R'], { options: {}, args: ['NIR / R'] }],
      [['formula', 'validate', 'NIR / R', '--json'], { options: { json: true }, args: ['NIR / R'] }],
      [['formula', 'validate'], { usage: /missing required argument 'formula'/ }],
      [['formula', 'validate', 'NIR / R', '--remote-rules'], { usage: /unknown option '--remote-rules'/ }],
    ],
  );
});
