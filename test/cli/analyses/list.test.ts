import { describe } from 'vitest';
import { registerAnalysesList } from '../../../src/cli/commands/analyses/list.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('analyses list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAnalysesList(program.command('analyses'), deps, wrap, runF),
    [
      [['analyses', 'list'], { options: {} }],
      [['analyses', 'ls', '--lot', 'lot-7', '--analysis-type', 'path', '--status', 'failed'], { options: { lot: 'lot-7', analysisType: 'path', status: 'failed' } }],
      [['analyses', 'list', '--all', '--wide', '--json'], { options: { all: true, wide: true, json: true } }],
      [['analyses', 'list', '--status', 'running'], { usage: /--status.*Valid: completed, failed/ }],
      [['analyses', 'list', '--analysis-type', 'countin'], { usage: /--analysis-type.*did you mean counting\?/ }],
      [['analyses', 'list', '--lot'], { usage: /option '--lot <id>' argument missing/ }],
    ],
  );
});
