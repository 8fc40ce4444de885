import { describe } from 'vitest';
import { registerFormulaCheck } from '../../../src/cli/commands/formula/check.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('formula check flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaCheck(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'check', '(NIR - R) / (NIR + R + eps)'], { options: {}, args: ['(NIR - R) / (NIR + R + eps)'] }],
      [['formula', 'check', '--', '-NIR / (R + eps)'], { options: {}, args: ['-NIR / (R + eps)'] }],
      [['formula', 'check', '--file', 'formulas.txt', '--json'], { options: { file: 'formulas.txt', json: true }, args: [undefined] }],
      [['formula', 'check', '-f', '-', '--remote-rules'], { options: { file: '-', remoteRules: true }, args: [undefined] }],
      [['formula', 'check', '-NIR / (R + eps)'], { usage: /unknown option '-NIR \/ \(R \+ eps\)'\n[^]*hint: a formula that starts with - goes after --/ }],
      [['formula', 'check', 'NIR', 'R'], { usage: /too many arguments/ }],
    ],
  );
});
