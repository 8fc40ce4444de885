import { beforeAll, describe, expect, it } from 'vitest';
import { registerQueueRunsGet } from '../../../src/cli/commands/queue-runs/get.js';
import type { Paginated as Page, QueueRun as Run } from '../../../src/contract/index.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api, type IssuedKey } from '../../helpers/server.js';
import { accountWithManyRuns } from './support.js';

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

describe('queue-runs get', () => {
  const suite = inProcessServiceForSuite();
  /** An account with more than 100 queues and runs, for paging. */
  let many: IssuedKey;
  beforeAll(async () => {
    many = await accountWithManyRuns(suite.server);
  });
  /** An account with one saved queue of three steps, for runs that tests drive. */
  let watched: IssuedKey & { queueId: string };
  beforeAll(async () => {
    const account = await suite.server.newAccount();
    const queue = await suite.server.admin<{ id: string }>(
      'queues', 'create', '--account', account.accountId, '--name', 'North lots',
      '--step', 'lot-a:counting', '--step', 'lot-b:replanting', '--step', 'lot-c:path',
    );
    watched = { ...account, queueId: queue.id };
  });
  const enqueue = (options: string[] = []) => suite.server.admin<Run>('queue-runs', 'enqueue', '--queue', watched.queueId, ...options);
  const envFor = (apiKey: string) => ({ REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: apiKey });

  it('--json prints the run as the service lists it, wherever it is in the list', async () => {
    const second = (await api(suite.server, 'GET', '/api/v2/queue-runs?limit=100&page=2', { key: many.apiKey })).body as Page<Run>;
    const run = second.data[5]!;
    const result = await runInProcess(['queue-runs', 'get', run.id, '--json'], { env: envFor(many.apiKey) });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(run);
  });

  it('shows the run and its steps for people', async () => {
    const run = await enqueue(['--name', 'Shown run']);
    const result = await runInProcess(['queue-runs', 'get', run.id], { env: envFor(watched.apiKey) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^name\s+Shown run$/m);
    expect(result.stdout).toMatch(/^1\tlot-a\tcounting\tpending\t-\t-$/m);
  });

  it('an unknown run id exits 4 with a clear message', async () => {
    const result = await runInProcess(['queue-runs', 'get', 'no-such-run'], { env: envFor(watched.apiKey) });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('queue run no-such-run not found');
  });

  it("another account's run is not found either", async () => {
    const run = await enqueue();
    const result = await runInProcess(['queue-runs', 'get', run.id], { env: envFor(many.apiKey) });
    expect(result.code).toBe(4);
  });
});
