import { beforeAll, describe, it } from 'vitest';
import { registerQueuesList } from '../../../src/cli/commands/queues/list.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import type { IssuedKey } from '../../helpers/server.js';
import { accountWithManyRuns, expectEveryItemOnce, expectPageAsServed } from '../queue-runs/support.js';

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

describe('queues list', () => {
  const suite = inProcessServiceForSuite();
  /** An account with more than 100 queues and runs, for paging. */
  let many: IssuedKey;
  beforeAll(async () => {
    many = await accountWithManyRuns(suite.server);
  });

  it('--json prints the page the service returned', async () => {
    await expectPageAsServed(suite.server, many.apiKey, ['queues', 'list', '--limit', '7', '--page', '2'], '/api/v2/queues?limit=7&page=2');
  });

  it('--all returns every item exactly once across pages', async () => {
    await expectEveryItemOnce(suite.server, many.apiKey, ['queues', 'list'], '/api/v2/queues', 105);
  });

});
