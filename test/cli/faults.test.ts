import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generalBody } from '../contract/fixtures.js';
import { spawnCli } from '../helpers/cli.js';
import { api, startServe, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import type { Fault } from '../../src/contract/faults.js';

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

describe('serve --fault and --seed', () => {
  const statusesOf = async (seed: string) => {
    const spawned = await spawnCli([
      'serve', '--port', '0', '--db', ':memory:', '--json', '--no-access-log', '--demo', '--seed', seed,
      '--fault', 'GET /api/v2/queues=503@0.5', '--fault', 'GET /api/v2/analyses=500x1',
    ]);
    try {
      const line = JSON.parse(spawned.firstLine) as { url: string; keys: { owner: string } };
      const statuses: number[] = [];
      for (let call = 0; call < 16; call++) statuses.push((await api(line, 'GET', '/api/v2/queues', { key: line.keys.owner })).status);
      const analyses = [];
      for (let call = 0; call < 2; call++) analyses.push((await api(line, 'GET', '/api/v2/analyses', { key: line.keys.owner })).status);
      return { statuses, analyses };
    } finally {
      await spawned.stop();
    }
  };

  it('the same seed faults the same requests', async () => {
    const first = await statusesOf('7');
    expect(first.analyses).toEqual([500, 200]);
    expect(first.statuses).toContain(503);
    expect(first.statuses).toContain(200);
    expect(await statusesOf('7')).toEqual(first);
  });

  it('a spec that does not parse is a usage error naming the syntax', async () => {
    const result = await runInProcess(['serve', '--port', '0', '--db', ':memory:', '--fault', 'GET /api/v2/queues=418']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('METHOD /PATH=ACTION');
  });
});
