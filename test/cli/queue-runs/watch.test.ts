import { describe } from 'vitest';
import { registerQueueRunsWatch } from '../../../src/cli/commands/queue-runs/watch.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('queue-runs watch flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueueRunsWatch(program.command('queue-runs'), deps, wrap, runF),
    [
      [['queue-runs', 'watch', 'r-1234'], { options: { interval: 5, maxUnreachable: 120 }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '-i', '0.5', '--timeout', '90', '--max-unreachable', '30', '--exit-status'], { options: { interval: 0.5, timeout: 90, maxUnreachable: 30, exitStatus: true }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '--json'], { options: { interval: 5, maxUnreachable: 120, json: true }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '--interval', '0.1'], { usage: /--interval.*expected a number of seconds of at least 0.5/ }],
      [['queue-runs', 'watch', 'r-1234', '--timeout', 'soon'], { usage: /--timeout.*expected a number of seconds/ }],
      [['queue-runs', 'watch', 'r-1234', '--max-unreachable', '0.5'], { usage: /--max-unreachable.*of at least 1/ }],
      [['queue-runs', 'watch'], { usage: /missing required argument 'id'/ }],
    ],
  );
});
