import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import { ISO_MS, expectError, expectIssues, listAll, type Page } from '../helpers/http.js';
import { serviceOpenApiDocument } from '../../src/server/routes/service.js';
import type { Analysis, Queue, QueueRun } from '../../src/contract/index.js';

/**
 * The read-only endpoints over real HTTP: the three catalogs, queues, queue runs, analyses
 * (v2 and the deprecated v0) and the OpenAPI document. Queues, runs and analyses come from
 * `admin seed`, the way docs/decisions.md keep them outside the API.
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

describe('catalogs', () => {
  const types = ['counting', 'replanting', 'path'];

  it('report-types: an array of entries per analysis type', async () => {
    const response = await get('/api/v2/catalogs/report-types');
    expect(response.status).toBe(200);
    const catalog = response.body as Record<string, Array<Record<string, unknown>>>;
    for (const type of types) {
      expect(Array.isArray(catalog[type]), type).toBe(true);
      expect(catalog[type]!.length).toBeGreaterThan(0);
      for (const entry of catalog[type]!) {
        expect(entry.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
        expect(typeof entry.key).toBe('string');
        expect(entry.label).toEqual({ en: expect.any(String), es: expect.any(String) });
        expect(Array.isArray(entry.statistics)).toBe(true);
        expect(['general', 'vegetation_index']).toContain(entry.reportCategory);
      }
    }
  });

  it('statistics: exactly { counting, replanting, path }, each an array of keys; report types use only them', async () => {
    const response = await get('/api/v2/catalogs/statistics');
    expect(response.status).toBe(200);
    const statistics = response.body as Record<string, unknown>;
    expect(Object.keys(statistics).sort()).toEqual(['counting', 'path', 'replanting']);
    const reportTypes = (await get('/api/v2/catalogs/report-types')).body as Record<string, Array<{ statistics: string[] }>>;
    for (const type of types) {
      const keys = statistics[type] as string[];
      expect(Array.isArray(keys)).toBe(true);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(typeof key).toBe('string');
      expect(new Set(keys).size).toBe(keys.length);
      for (const entry of reportTypes[type]!) for (const statistic of entry.statistics) expect(keys).toContain(statistic);
    }
  });

  it('vegetation-index-defaults: the spec’s index names, defaults and customFormula', async () => {
    const response = await get('/api/v2/catalogs/vegetation-index-defaults');
    expect(response.status).toBe(200);
    const defaults = response.body as {
      indexNames: string[];
      colorScales: Record<string, { stops: Array<{ value: number; color: string }> }>;
      accentColors: Record<string, string>;
      layouts: Record<string, { elements: unknown[] }>;
      defaults: Record<string, unknown>;
      customFormula: Record<string, unknown>;
    };
    const names = ['NDVI', 'NDWI', 'EVI', 'SAVI', 'NDRE', 'LCI', 'Custom_Index'];
    expect([...defaults.indexNames].sort()).toEqual([...names].sort());
    for (const name of names) {
      const scale = defaults.colorScales[name];
      expect(scale, name).toBeDefined();
      expect(scale!.stops.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < scale!.stops.length; i++) expect(scale!.stops[i]!.value).toBeGreaterThan(scale!.stops[i - 1]!.value);
      for (const stop of scale!.stops) expect(stop.color).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(defaults.accentColors[name], name).toMatch(/^#[0-9a-fA-F]{6}$/);
    }
    expect(Object.keys(defaults.layouts).sort()).toEqual(['landscape', 'portrait']);
    for (const layout of Object.values(defaults.layouts)) expect(layout.elements.length).toBeGreaterThan(0);
    expect(defaults.defaults).toEqual({ paperSize: 'letter', mapResolution: 150, margins: { top: 2, right: 2, bottom: 2, left: 2 }, saviL: 0.5 });
    expect(defaults.customFormula).toEqual({
      allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
      allowedScalars: ['eps', 'L'],
      allowedFunctions: ['sqrt', 'abs'],
      rules: { divisionRequiresEps: true },
    });
  });
});

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

describe('GET /api/v2/openapi.json', () => {
  const operations: Array<[string, string]> = [
    ['get', '/api/v2/templates'],
    ['post', '/api/v2/templates'],
    ['get', '/api/v2/templates/presets'],
    ['get', '/api/v2/templates/{id}'],
    ['put', '/api/v2/templates/{id}'],
    ['delete', '/api/v2/templates/{id}'],
    ['post', '/api/v2/templates/validate-formula'],
    ['get', '/api/v2/catalogs/report-types'],
    ['get', '/api/v2/catalogs/statistics'],
    ['get', '/api/v2/catalogs/vegetation-index-defaults'],
    ['get', '/api/v2/queues'],
    ['get', '/api/v2/queue-runs'],
    ['get', '/api/v2/analyses'],
    ['post', '/api/v0/analyses'],
  ];

  it('is an OpenAPI 3 document listing every path and method', async () => {
    const response = await api(suite.server, 'GET', '/api/v2/openapi.json', { key: suite.account.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    const document = response.body as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown>; deprecated?: boolean; parameters?: Array<{ name: string; in: string }> }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(typeof document.info.title).toBe('string');
    expect(typeof document.info.version).toBe('string');
    for (const [method, path] of operations) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses).length).toBeGreaterThan(0);
      for (const status of Object.keys(operation!.responses)) expect(status).toMatch(/^([1-5]\d\d|default)$/);
      // Every operation can be limited, and can meet a locked database or a shutdown.
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['429', '503']));
    }
    expect(document.paths['/api/v0/analyses']!.post!.deprecated).toBe(true);
    expect(document.paths['/api/v2/templates']!.post!.responses).toHaveProperty('201');
    expect(document.paths['/api/v2/templates/{id}']!.get!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]),
    );
    const listParameters = (document.paths['/api/v2/templates']!.get!.parameters ?? []).map((parameter) => parameter.name);
    expect(listParameters).toEqual(expect.arrayContaining(['page', 'limit', 'analysisType', 'reportType', 'reportCategory']));
    const runParameters = (document.paths['/api/v2/queue-runs']!.get!.parameters ?? []).map((parameter) => parameter.name);
    expect(runParameters).toEqual(expect.arrayContaining(['page', 'limit', 'status']));
  });

  it('is the document the traffic checks use (built from the same route table), served without a key', async () => {
    const response = await api(suite.server, 'GET', '/api/v2/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(serviceOpenApiDocument());
  });

  it('declares a 405 for each method a path lacks, and the service answers each with a 405', async () => {
    const document = serviceOpenApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const declared: Array<[method: string, path: string]> = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
        const operation = operations[method];
        expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
        if (Object.keys(operation!.responses).some((status) => status.startsWith('2'))) continue;
        expect(Object.keys(operation!.responses)).toContain('405');
        declared.push([method.toUpperCase(), path.replace('{id}', 'some-id')]);
      }
    }
    // A 405 comes before the key is read: no key, so no account's rate limit is spent.
    const statuses = await Promise.all(declared.map(([method, path]) => api(suite.server, method, path, method === 'GET' ? {} : { body: {} })));
    expect(statuses.map((response, index) => `${declared[index]!.join(' ')} ${response.status}`)).toEqual(
      declared.map(([method, path]) => `${method} ${path} 405`),
    );
    // GET and PUT of validate-formula and DELETE of presets among them.
    expect(declared.length).toBeGreaterThan(20);
    expect(Object.keys(document.paths['/api/v2/templates/validate-formula']!.get!.responses)).toContain('405');
    expect(Object.keys(document.paths['/api/v2/templates/presets']!.delete!.responses)).toContain('405');
  });

  it('bounds no template id: a 501-character id is the 404 of an id that names nothing', async () => {
    const document = serviceOpenApiDocument() as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema: Record<string, unknown> }> }>> };
    const id = document.paths['/api/v2/templates/{id}']!.get!.parameters!.find((parameter) => parameter.name === 'id')!;
    expect(id.schema).not.toHaveProperty('maxLength');
    expectError(await get(`/api/v2/templates/${'a'.repeat(501)}`), 404, 'NOT_FOUND');
  });

  it('names operations like the CLI verbs, bounds page and limit, and lists the closed sets', () => {
    type Schema = { type?: string; enum?: string[]; minimum?: number; maximum?: number; default?: number };
    const document = serviceOpenApiDocument() as {
      paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; schema: Schema }> }>>;
    };
    const operationIds = Object.values(document.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    expect(operationIds).toEqual(
      expect.arrayContaining(['listTemplates', 'getTemplate', 'createTemplate', 'replaceTemplate', 'deleteTemplate', 'listPresets', 'validateFormula', 'listQueues', 'listQueueRuns', 'listAnalyses', 'searchAnalysesV0']),
    );
    const parameter = (name: string) => document.paths['/api/v2/queue-runs']!.get!.parameters!.find((candidate) => candidate.name === name)!.schema;
    expect(parameter('page')).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(parameter('limit')).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(parameter('status').enum).toEqual(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']);
  });
});
