import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/listen.js';
import { serviceOpenApiDocument } from '../../../src/server/routes/service.js';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { expectError } from '../../helpers/http.js';
import { attackedServerForSuite } from '../../helpers/slow-clients.js';

/** The OpenAPI document (src/server/routes/openapi.ts), generated from the route table, as it is served. */

const suite = inProcessServiceForSuite();

const get = (path: string, key = suite.account.apiKey) => api(suite.server, 'GET', path, { key });

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

describe('item 2: one account cannot make the server hold gigabytes', () => {
  let server: RunningServer;
  attackedServerForSuite((attacked) => ({ server } = attacked));

  it('the OpenAPI document states the caps', async () => {
    type Response = { description?: string; $ref?: string };
    const document = (await api(server, 'GET', '/api/v2/openapi.json')).body as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
      components: { responses: Record<string, Response> };
    };
    // Shared answers are references to components.responses.
    const described = (response: Response | undefined) =>
      response?.$ref ? document.components.responses[response.$ref.split('/').at(-1)!]!.description : response?.description;
    expect(document.info.description).toContain('256 KiB');
    expect(document.info.description).toContain('200 layout elements');
    expect(described(document.paths['/api/v2/templates']!.post!.responses['413'])).toContain('256 KiB');
    expect(described(document.paths['/api/v2/templates']!.get!.responses['429'])).toContain('in flight');
    expect(described(document.paths['/api/v2/templates']!.get!.responses['503'])).toContain('192 MiB');
    expect(document.info.description).toContain('10 s is dropped');
    expect(JSON.stringify(document)).toContain('"maxItems":200');
  });
});
