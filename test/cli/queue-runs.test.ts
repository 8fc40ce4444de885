import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSI } from '../helpers/cli.js';
import { api, tempDir } from '../helpers/server.js';
import { runInProcess, startInProcessService, type InProcessService } from '../helpers/in-process.js';
import type { Paginated as Page, QueueRun as Run } from '../../src/contract/index.js';

// `queues list`, `queue-runs list` and `queue-runs get`; `queue-runs watch` is in queue-runs/watch.test.ts.

let server: InProcessService;
/** An account with more than 100 queues and runs, for paging. */
let many: { accountId: string; apiKey: string };
/** An account with one saved queue of three steps, for runs that tests drive. */
let watched: { accountId: string; apiKey: string; queueId: string };

const envFor = (apiKey: string) => ({ REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: apiKey });

async function seed(accountId: string, fixtures: unknown): Promise<{ queues: { id: string }[]; runs: Run[] }> {
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures));
  return server.admin('seed', '--account', accountId, '--file', file);
}

const enqueue = (options: string[] = []) => server.admin<Run>('queue-runs', 'enqueue', '--queue', watched.queueId, ...options);


beforeAll(async () => {
  server = await startInProcessService();
  many = await server.newAccount();
  await seed(many.accountId, {
    queues: Array.from({ length: 105 }, (_, index) => ({ name: `queue ${index}`, steps: [{ lotId: `lot-${index}`, analysisType: 'counting' }] })),
    runs: Array.from({ length: 130 }, (_, index) => ({ queue: index % 105, name: `run ${index}`, advance: index % 5 })),
  });
  const account = await server.newAccount();
  const queue = await server.admin<{ id: string }>(
    'queues', 'create', '--account', account.accountId, '--name', 'North lots',
    '--step', 'lot-a:counting', '--step', 'lot-b:replanting', '--step', 'lot-c:path',
  );
  watched = { ...account, queueId: queue.id };
});
afterAll(async () => {
  await server?.stop();
});

describe('queues list and queue-runs list', () => {
  it('--json prints the page the service returned', async () => {
    for (const [command, path] of [
      [['queues', 'list', '--limit', '7', '--page', '2'], '/api/v2/queues?limit=7&page=2'],
      [['queue-runs', 'list', '--limit', '7', '--page', '2'], '/api/v2/queue-runs?limit=7&page=2'],
      [['queue-runs', 'list', '--status', 'running'], '/api/v2/queue-runs?status=running'],
    ] as const) {
      const [result, expected] = await Promise.all([runInProcess([...command, '--json'], { env: envFor(many.apiKey) }), api(server, 'GET', path, { key: many.apiKey })]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual(expected.body);
    }
  });

  it('--all returns every item exactly once across pages', async () => {
    for (const [command, path, total] of [
      [['queues', 'list'], '/api/v2/queues', 105],
      [['queue-runs', 'list'], '/api/v2/queue-runs', 130],
    ] as const) {
      const result = await runInProcess([...command, '--all', '--json'], { env: envFor(many.apiKey) });
      expect(result.code).toBe(0);
      const items = (JSON.parse(result.stdout) as Page<{ id: string }>).data;
      expect(items).toHaveLength(total);
      expect(new Set(items.map((item) => item.id)).size).toBe(total);
      const pages = await Promise.all([1, 2].map((page) => api(server, 'GET', `${path}?limit=100&page=${page}`, { key: many.apiKey })));
      expect(items).toEqual(pages.flatMap((page) => (page.body as Page<unknown>).data));
    }
  });

  it('--status filters, piped output is tab-separated without colour, and the footer goes to stderr', async () => {
    const result = await runInProcess(['queue-runs', 'list', '--status', 'completed'], { env: { ...envFor(many.apiKey), NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    const rows = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row[2]).toBe('completed');
    expect(result.stderr).toMatch(/^showing 20 of \d+ \(page 1\); use --all or --page 2$/m);
  });

  it('rejects a status the service does not know (exit 2)', async () => {
    const result = await runInProcess(['queue-runs', 'list', '--status', 'done'], { env: envFor(many.apiKey) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pending, claimed, running, completed, failed, cancelled');
  });
});

describe('queue-runs get', () => {
  it('--json prints the run as the service lists it, wherever it is in the list', async () => {
    const second = (await api(server, 'GET', '/api/v2/queue-runs?limit=100&page=2', { key: many.apiKey })).body as Page<Run>;
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
