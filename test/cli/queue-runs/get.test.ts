import { describe } from 'vitest';
import { registerQueueRunsGet } from '../../../src/cli/commands/queue-runs/get.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('queue-runs get flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueueRunsGet(program.command('queue-runs'), deps, wrap, runF),
    [
      [['queue-runs', 'get', 'r-1234'], { options: {}, args: ['r-1234'] }],
      [['queue-runs', 'get', 'Night run', '--json'], { options: { json: true }, args: ['Night run'] }],
      [['queue-runs', 'get'], { usage: /missing required argument 'id'/ }],
      [['queue-runs', 'get', 'r-1234', '--watch'], { usage: /unknown option '--watch'/ }],
    ],
  );
});
