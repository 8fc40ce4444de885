import { describe } from 'vitest';
import { registerFormulaEval } from '../../../src/cli/commands/formula/eval.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('formula eval flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaEval(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'eval', 'NIR / R'], { options: { band: {}, eps: 1e-9, L: 0.5 }, args: ['NIR / R'] }],
      [['formula', 'eval', '(NIR - R) / (NIR + R + eps)', '--band', 'NIR=0.62', '-b', 'R=0.08', '--eps', '0.001', '--L', '1'], { options: { band: { NIR: 0.62, R: 0.08 }, eps: 0.001, L: 1 }, args: ['(NIR - R) / (NIR + R + eps)'] }],
      [['formula', 'eval', 'NIR', '--band', 'NIR:0.6'], { usage: /--band: expected NAME=VALUE \(e.g. NIR=0.62\), got `NIR:0.6`/ }],
      [['formula', 'eval', 'NIR', '--band', 'NIR=high'], { usage: /--band NIR/ }],
      [['formula', 'eval', 'NIR', '--eps', 'tiny'], { usage: /--eps/ }],
      [['formula', 'eval'], { usage: /missing required argument 'formula'/ }],
    ],
  );
});
