import { describe } from 'vitest';
import { registerQueueRunsList } from '../../../src/cli/commands/queue-runs/list.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('queue-runs list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueueRunsList(program.command('queue-runs'), deps, wrap, runF),
    [
      [['queue-runs', 'list'], { options: {} }],
      [['queue-runs', 'ls', '--status', 'running', '--all'], { options: { status: 'running', all: true } }],
      [['queue-runs', 'list', '--status', 'cancelled', '--limit', '100', '--json'], { options: { status: 'cancelled', limit: 100, json: true } }],
      [['queue-runs', 'list', '--status', 'canceled'], { usage: /--status.*did you mean cancelled\?/ }],
      [['queue-runs', 'list', '--limit', '1.5'], { usage: /--limit.*expected a whole number/ }],
    ],
  );
});
