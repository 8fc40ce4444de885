import { describe, expect, it } from 'vitest';
import { registerAdminFaultsAdd } from '../../../../src/cli/commands/admin/faults/add.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generalBody } from '../../../contract/fixtures.js';
import { api, startServe, tempDir } from '../../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../../../helpers/in-process.js';
import type { Fault } from '../../../../src/contract/faults.js';

describe('admin faults add flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminFaultsAdd(program.command('admin').command('faults'), deps, wrap, runF),
    [
      [['admin', 'faults', 'add', '--route', 'GET /api/v2/templates', '--status', '503', '--count', '2'], { options: { route: 'GET /api/v2/templates', status: 503, count: 2 } }],
      [['admin', 'faults', 'add', '--route', '* /api/*', '--latency', '500', '--rate', '0.5', '--account', 'acc-1'], { options: { route: '* /api/*', latency: 500, rate: 0.5, account: 'acc-1' } }],
      [['admin', 'faults', 'add', '--route', '* /api/*', '--reset-connection', '--db', 'state.db'], { options: { route: '* /api/*', resetConnection: true, db: 'state.db' } }],
      [['admin', 'faults', 'add', '--status', '503'], { usage: /required option '--route <route>' not specified/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--rate', '2'], { usage: /--rate.*expected a chance from 0 to 1/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--status', '42'], { usage: /--status.*expected a whole number from 100 to 599/ }],
      [['admin', 'faults', 'add', '--route', 'GET /', '--count', '0'], { usage: /--count.*expected a whole number from 1 up/ }],
    ],
  );
});

/**
 * Injected faults end to end: added with `admin faults add` to a running server's database
 * (or with `serve --fault`), met by the real CLI's retry and watch logic.
 */

const suite = inProcessServiceForSuite();
const env = () => suite.env;
const addFault = (...args: string[]) => suite.server.admin<Fault>('faults', 'add', ...args);
const faults = () => suite.server.admin<Fault[]>('faults', 'list');

describe('faults against the CLI', () => {
  it('templates list rides out two 503s', async () => {
    await suite.server.admin('faults', 'clear');
    const fault = await addFault('--route', 'GET /api/v2/templates', '--status', '503', '--count', '2');
    const result = await runInProcess(['templates', 'list', '--json', '--verbose'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 0 });
    expect(result.stderr.match(/^< 503/gm)).toHaveLength(2);
    expect(result.stderr.match(/^< 200/gm)).toHaveLength(1);
    expect(await faults()).toEqual([expect.objectContaining({ id: fault.id, remaining: 0 })]);
    // Used up: the next request is answered normally.
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).status).toBe(200);
  });

  it('a POST under an injected 429 is not applied, and the CLI repeats it after Retry-After', async () => {
    await suite.server.admin('faults', 'clear');
    await addFault('--route', 'POST /api/v2/templates', '--status', '429', '--count', '1');
    const file = join(tempDir(), 'template.json');
    writeFileSync(file, JSON.stringify(generalBody({ name: 'after a 429' })));
    const started = Date.now();
    const result = await runInProcess(['templates', 'create', '--file', file, '--verbose'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^< 429/m);
    expect(result.stderr).toMatch(/^< retry-after: 1$/m);
    expect(result.stderr).toMatch(/rate limited; retrying in 1 s/);
    expect(result.stderr.match(/^< 201/gm)).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThan(900);
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey });
    expect((list.body as { data: { name: string }[] }).data.filter((template) => template.name === 'after a 429')).toHaveLength(1);
  });

  it('queue-runs watch rides out a reset connection', async () => {
    await suite.server.admin('faults', 'clear');
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'q', '--step', 'lot-1:counting');
    const run = await suite.server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id);
    for (let step = 0; step < 3; step++) await suite.server.admin('queue-runs', 'advance', run.id);
    await addFault('--route', 'GET /api/v2/queue-runs', '--reset-connection', '--count', '1');
    const result = await runInProcess(['queue-runs', 'watch', run.id, '--interval', '0.5', '--exit-status', '--verbose'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/completed/);
    expect(result.stderr).toMatch(/retry 1 in/);
    expect((await faults())[0]).toMatchObject({ remaining: 0 });
  });
});

describe('faulted answers', () => {
  it('have the normal error shape and headers, and change nothing', async () => {
    await suite.server.admin('faults', 'clear');
    await addFault('--route', 'POST /api/v2/templates', '--status', '503');
    await addFault('--route', 'DELETE /api/v2/templates/:id', '--status', '429');
    await addFault('--route', 'PUT /api/v2/templates/*', '--status', '502');
    const before = (await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).text;
    const created = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body: generalBody() });
    expect(created.status).toBe(503);
    expect(created.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/^Injected fault/) });
    expect(created.headers.get('retry-after')).toBe('1');
    expect(created.headers.get('x-reportctl-fault')).toMatch(/^[0-9a-f-]{36}$/);

    const id = (JSON.parse(before) as { data: { id: string }[] }).data[0]!.id;
    const deleted = await api(suite.server, 'DELETE', `/api/v2/templates/${id}`, { key: suite.account.apiKey });
    expect(deleted.status).toBe(429);
    expect(deleted.body).toMatchObject({ error: 'RATE_LIMITED' });
    expect(deleted.headers.get('retry-after')).toBe('1');
    expect(deleted.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(deleted.headers.get('x-ratelimit-reset')).toBe('1');
    expect(deleted.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(deleted.headers.get('ratelimit')).toBe('"writes";r=0;t=1');

    const replaced = await api(suite.server, 'PUT', `/api/v2/templates/${id}`, { key: suite.account.apiKey, body: generalBody({ name: 'changed' }) });
    expect(replaced.status).toBe(502);
    expect(replaced.body).toMatchObject({ error: 'BAD_GATEWAY' });

    // Authentication still comes first: a bad key is a 401, not a fault.
    expect((await api(suite.server, 'POST', '/api/v2/templates', { key: 'rctl_wrong', body: generalBody() })).status).toBe(401);
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).text).toBe(before);
    await suite.server.admin('faults', 'clear');
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${id}`, { key: suite.account.apiKey })).status).toBe(204);
  });

  it('a latency fault delays the answer, then the request runs', async () => {
    await suite.server.admin('faults', 'clear');
    await addFault('--route', 'GET /api/v2/queues', '--latency', '600', '--count', '1');
    const started = Date.now();
    const slow = await api(suite.server, 'GET', '/api/v2/queues', { key: suite.account.apiKey });
    expect(slow.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('--account faults only that account', async () => {
    await suite.server.admin('faults', 'clear');
    const other = await suite.server.newAccount();
    await addFault('--route', '* /api/*', '--status', '500', '--account', other.accountId);
    expect((await api(suite.server, 'GET', '/api/v2/queues', { key: suite.account.apiKey })).status).toBe(200);
    const faulted = await api(suite.server, 'GET', '/api/v2/queues', { key: other.apiKey });
    expect(faulted.status).toBe(500);
    expect(faulted.body).toMatchObject({ error: 'INTERNAL_ERROR' });
    await suite.server.admin('faults', 'clear');
    expect((await api(suite.server, 'GET', '/api/v2/queues', { key: other.apiKey })).status).toBe(200);
  });

  it('admin faults add refuses what cannot be a fault (exit 2)', async () => {
    for (const args of [
      ['--route', 'GET /api/v2/queues', '--status', '404'],
      ['--route', 'GET /api/v2/queues'],
      ['--route', 'GET /api/v2/queues', '--status', '503', '--latency', '5'],
      ['--route', 'FETCH /x', '--status', '503'],
      ['--route', 'GET /api/v2/queues', '--status', '503', '--rate', '2'],
    ]) {
      const result = await runInProcess(['admin', 'faults', 'add', '--db', suite.server.db, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(await faults()).toEqual([]);
  });
});

describe('--count under concurrent requests', () => {
  it('is used up exactly, across two servers on one database', async () => {
    const second = await startServe({ db: suite.server.db }); // another process on the same file
    try {
      await suite.server.admin('faults', 'clear');
      await addFault('--route', 'GET /api/v2/queues', '--status', '503', '--count', '7');
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, index) => api(index % 2 ? second : suite.server, 'GET', '/api/v2/queues', { key: suite.account.apiKey }).then((r) => r.status)),
      );
      expect(statuses.filter((status) => status === 503)).toHaveLength(7);
      expect(statuses.filter((status) => status === 200)).toHaveLength(53);
      expect(await faults()).toEqual([expect.objectContaining({ remaining: 0 })]);
    } finally {
      await second.stop();
      await suite.server.admin('faults', 'clear');
    }
  });
});
