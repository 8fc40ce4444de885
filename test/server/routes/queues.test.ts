import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Analysis, Queue, QueueRun } from '../../../src/contract/index.js';
import { api, tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { ISO_MS, expectError, expectIssues, listAll, type Page } from '../../helpers/http.js';

/**
 * Queues, queue runs and analyses over real HTTP (src/server/routes/queues.ts), v2 and the
 * deprecated v0 listing. They come from `admin seed`, the way docs/decisions.md keep them
 * outside the API.
 */

const suite = inProcessServiceForSuite();

const fixtures = {
  queues: [
    {
      name: 'North block',
      steps: [
        { lotId: 'lot-n1', analysisType: 'counting' },
        { lotId: 'lot-n2', analysisType: 'replanting' },
      ],
    },
    { name: 'South block', steps: [{ lotId: 'lot-s1', analysisType: 'path' }] },
  ],
  runs: [
    { queue: 0, name: 'run pending' },
    { queue: 0, name: 'run claimed', advance: 1 },
    { queue: 0, name: 'run running', advance: 2 },
    { queue: 0, name: 'run completed', advance: 10, estimatedHa: 42.5 },
    { queue: 0, name: 'run failed', advance: 10, failAtStep: 1 },
    { queue: 1, name: 'run cancelled', advance: 1, cancel: true },
  ],
  analyses: [
    { lotId: 'lot-a', analysisType: 'counting', status: 'completed' },
    { lotId: 'lot-a', analysisType: 'counting', status: 'failed' },
    { lotId: 'lot-a', analysisType: 'replanting', status: 'completed' },
    { lotId: 'lot-b', analysisType: 'counting', status: 'completed' },
    { lotId: 'lot-b', analysisType: 'path', status: 'failed' },
  ],
};

beforeAll(async () => {
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures));
  await suite.server.admin('seed', '--account', suite.account.accountId, '--file', file);
});

const get = (path: string, key = suite.account.apiKey) => api(suite.server, 'GET', path, { key });

describe('GET /api/v2/queues', () => {
  it('the account’s saved queues with steps, newest first, in the paginated envelope', async () => {
    const response = await get('/api/v2/queues');
    expect(response.status).toBe(200);
    const envelope = response.body as Page<Queue>;
    expect(envelope).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(envelope.data.map((queue) => queue.name)).toEqual(['South block', 'North block']);
    const north = envelope.data[1]!;
    expect(north.steps).toEqual([
      { order: 1, lotId: 'lot-n1', analysisType: 'counting' },
      { order: 2, lotId: 'lot-n2', analysisType: 'replanting' },
    ]);
    expect(north.createdAt).toMatch(ISO_MS);
    const second = await get('/api/v2/queues?limit=1&page=2');
    expect((second.body as Page<Queue>).data.map((queue) => queue.id)).toEqual([north.id]);
    expectIssues(await get('/api/v2/queues?limit=500'), 'limit');
    expectIssues(await get('/api/v2/queues?page=0'), 'page');
  });
});

describe('GET /api/v2/queue-runs', () => {
  let runs: QueueRun[];
  beforeAll(async () => {
    runs = await listAll<QueueRun>(suite.server, suite.account.apiKey, '/api/v2/queue-runs');
  });

  it('lists every run with the spec’s fields, newest first', () => {
    expect(runs.map((run) => run.name)).toEqual(fixtures.runs.map((run) => run.name).reverse());
    for (const run of runs) {
      for (const field of ['id', 'name', 'queueId', 'status', 'estimatedHa', 'steps', 'createdAt', 'startedAt', 'finishedAt']) {
        expect(run, `${run.name} has ${field}`).toHaveProperty(field);
      }
      expect(run.createdAt).toMatch(ISO_MS);
      for (const step of run.steps) expect(['pending', 'running', 'completed', 'failed', 'skipped']).toContain(step.status);
    }
    const byName = new Map(runs.map((run) => [run.name, run]));
    expect(byName.get('run completed')!.estimatedHa).toBe(42.5);
    expect(byName.get('run pending')!.startedAt).toBeNull();
    expect(byName.get('run pending')!.finishedAt).toBeNull();
    expect(byName.get('run completed')!.startedAt).toMatch(ISO_MS);
    expect(byName.get('run completed')!.finishedAt).toMatch(ISO_MS);
  });

  it.each(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled'])('status=%s filters to that status', async (status) => {
    const response = await get(`/api/v2/queue-runs?status=${status}`);
    expect(response.status).toBe(200);
    const envelope = response.body as Page<QueueRun>;
    expect(envelope.total).toBe(1);
    expect(envelope.data.map((run) => run.name)).toEqual([`run ${status}`]);
    expect(envelope.data[0]!.status).toBe(status);
  });

  it('a status outside the allowed set is 400 at `status`', async () => {
    expectIssues(await get('/api/v2/queue-runs?status=done'), 'status');
    expectIssues(await get('/api/v2/queue-runs?status='), 'status');
  });
});

describe('GET /api/v2/analyses', () => {
  const names = async (query: string) => {
    const response = await get(`/api/v2/analyses?${query}`);
    expect(response.status, response.text).toBe(200);
    const envelope = response.body as Page<Analysis>;
    expect(envelope.total).toBe(envelope.data.length);
    return envelope.data.map((analysis) => `${analysis.lotId}/${analysis.analysisType}/${analysis.status}`);
  };

  it('filters lotId, analysisType and status combine with AND', async () => {
    expect(await names('lotId=lot-a')).toEqual(['lot-a/replanting/completed', 'lot-a/counting/failed', 'lot-a/counting/completed']);
    expect(await names('lotId=lot-a&analysisType=counting')).toEqual(['lot-a/counting/failed', 'lot-a/counting/completed']);
    expect(await names('lotId=lot-a&analysisType=counting&status=failed')).toEqual(['lot-a/counting/failed']);
    expect(await names('analysisType=counting&status=completed')).toEqual(
      expect.arrayContaining(['lot-b/counting/completed', 'lot-a/counting/completed']),
    );
    expect((await names('analysisType=counting&status=completed')).every((name) => name.endsWith('/counting/completed'))).toBe(true);
    expect(await names('lotId=lot-b&analysisType=replanting')).toEqual([]);
    expect(await names('lotId=lot-b&status=failed')).toEqual(['lot-b/path/failed']);
    expect(await names('lotId=no-such-lot')).toEqual([]);
  });

  it('includes the analyses of finished run steps', async () => {
    const fromRuns = await names('lotId=lot-n1');
    // "run completed" and "run failed" both finished step 1 (lot-n1 counting); "run running" has not yet.
    expect([...fromRuns].sort()).toEqual(['lot-n1/counting/completed', 'lot-n1/counting/failed']);
  });

  it('a filter value outside its allowed set is 400 at the parameter’s name', async () => {
    expectIssues(await get('/api/v2/analyses?status=running'), 'status');
    expectIssues(await get('/api/v2/analyses?analysisType=orchard'), 'analysisType');
    expectIssues(await get('/api/v2/analyses?limit=0'), 'limit');
  });
});

describe('POST /api/v0/analyses (deprecated)', () => {
  const legacy = (body: unknown, key: string | null = suite.account.apiKey) =>
    api(suite.server, 'POST', '/api/v0/analyses', { ...(key === null ? {} : { key }), body });
  const itemsOf = (body: unknown): Analysis[] => (Array.isArray(body) ? body : (body as { data: Analysis[] }).data);

  const expectDeprecated = (response: Awaited<ReturnType<typeof legacy>>) => {
    expect(response.headers.get('deprecation'), `Deprecation on a ${response.status}`).toMatch(/^@\d+$/);
    expect(response.headers.get('link')).toBe('</api/v2/analyses>; rel="successor-version"');
    expect(response.headers.get('sunset')).toBeNull();
  };

  it('still answers, marked deprecated, with no Sunset', async () => {
    const response = await legacy({});
    expect(response.status, response.text).toBe(200);
    expectDeprecated(response);
    const all = await listAll<Analysis>(suite.server, suite.account.apiKey, '/api/v2/analyses');
    expect(itemsOf(response.body).map((analysis) => analysis.id).sort()).toEqual(all.map((analysis) => analysis.id).sort());
  });

  it('only one filter applies: the filters do not combine', async () => {
    const combined = await names2('lotId=lot-a&analysisType=path');
    expect(combined).toEqual([]);
    const response = await legacy({ lotId: 'lot-a', analysisType: 'path' });
    expect(response.status).toBe(200);
    expectDeprecated(response);
    const items = itemsOf(response.body);
    expect(items.length).toBeGreaterThan(0);
    const byLot = items.every((analysis) => analysis.lotId === 'lot-a');
    const byType = items.every((analysis) => analysis.analysisType === 'path');
    expect(byLot || byType).toBe(true);
    // With one filter it is a plain filter.
    const one = itemsOf((await legacy({ status: 'failed' })).body);
    expect(one.map((analysis) => analysis.status).every((status) => status === 'failed')).toBe(true);
    expect(one.length).toBe((await names2('status=failed')).length);
  });

  it('its 400 and 401 are marked deprecated too', async () => {
    const invalid = await legacy({ status: 'exploded' });
    expectIssues(invalid, 'status');
    expectDeprecated(invalid);
    const badPage = await legacy({ page: 0 });
    expectIssues(badPage, 'page');
    expectDeprecated(badPage);
    const noKey = await legacy({}, null);
    expectError(noKey, 401, 'API_KEY_MISSING');
    expectDeprecated(noKey);
  });

  it('ignores fields it does not know, as an old client may send them', async () => {
    const plain = await legacy({ status: 'failed' });
    const withExtras = await legacy({ status: 'failed', lotIds: ['lot-a'], sort: 'newest', clientVersion: 3 });
    expect(withExtras.status, withExtras.text).toBe(200);
    expectDeprecated(withExtras);
    expect(withExtras.body).toEqual(plain.body);
  });

  it('pages with page and limit in the body: 100 a page unless limit says less', async () => {
    const whole = (await legacy({})).body as Page<Analysis>;
    expect(whole.limit).toBe(100);
    expect(whole.total).toBeGreaterThan(2);
    const pages: string[] = [];
    for (let page = 1; page <= whole.total; page++) {
      const response = await legacy({ page, limit: 1 });
      expect(response.status, response.text).toBe(200);
      const body = response.body as Page<Analysis>;
      expect(body).toMatchObject({ page, limit: 1, total: whole.total });
      pages.push(...body.data.map((analysis) => analysis.id));
    }
    expect(pages).toEqual(whole.data.map((analysis) => analysis.id));
    expect(((await legacy({ page: 2 })).body as Page<Analysis>).data).toEqual(whole.total > 100 ? expect.any(Array) : []);
    expectIssues(await legacy({ limit: 101 }), 'limit');
  });

  it('the v2 listing is not marked deprecated', async () => {
    const response = await get('/api/v2/analyses');
    expect(response.headers.get('deprecation')).toBeNull();
    expect(response.headers.get('sunset')).toBeNull();
  });

  async function names2(query: string): Promise<string[]> {
    const response = await get(`/api/v2/analyses?${query}`);
    return (response.body as Page<Analysis>).data.map((analysis) => analysis.id);
  }
});
