import { describe } from 'vitest';
import { registerQueuesList } from '../../../src/cli/commands/queues/list.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('queues list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueuesList(program.command('queues'), deps, wrap, runF),
    [
      [['queues', 'list'], { options: {} }],
      [['queues', 'ls', '--all', '--json'], { options: { all: true, json: true } }],
      [['queues', 'list', '--page', '2', '--limit', '10', '--wide'], { options: { page: 2, limit: 10, wide: true } }],
      [['queues', 'list', '--limit', '0'], { usage: /--limit.*expected a whole number from 1 to 100/ }],
      [['queues', 'list', '--status', 'running'], { usage: /unknown option '--status'/ }],
    ],
  );
});
