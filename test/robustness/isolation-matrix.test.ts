// Across modules: account isolation over every endpoint and method of the OpenAPI document.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startInProcessService, type InProcessService } from '../helpers/in-process.js';
import { api, tempDir, type IssuedKey } from '../helpers/server.js';
import { createTemplate, expectError, listAll, minimalBody, readCatalogs, type CatalogsOverHttp, type TemplateDoc } from '../helpers/http.js';

/**
 * docs/decisions.md: "Authentication", as a matrix over every endpoint of the OpenAPI document and
 * every method: B's keys (owner and sub-user) never reach A's data, a revoked key is refused at
 * once, a key in the query string is never used, and no key is ever written anywhere — not in
 * the access log (this server runs with it), not in an error body, not in `--verbose` output.
 */

let server: InProcessService;
/** The service's access log, a line per request. */
const accessLog: string[] = [];
let catalogs: CatalogsOverHttp;
let ownerA: IssuedKey;
let subA: IssuedKey;
let ownerB: IssuedKey;
let subB: IssuedKey;
let templatesA: TemplateDoc[];
/** Every id and name of A's data, and the lots only A has: none may show in anything B gets. */
let markersOfA: string[];
/** Every response text seen by the tests, to check that no key is ever echoed. */
const bodiesSeen: string[] = [];

type Response = Awaited<ReturnType<typeof api>>;

async function call(method: string, path: string, options: Parameters<typeof api>[3] = {}): Promise<Response> {
  const response = await api(server, method, path, options);
  bodiesSeen.push(response.text);
  return response;
}

const admin = <T>(...args: string[]): Promise<T> => server.admin<T>(...args);

function fixturesFile(prefix: string): string {
  const file = join(tempDir(), `${prefix}-fixtures.json`);
  writeFileSync(
    file,
    JSON.stringify({
      queues: [{ name: `${prefix}-queue`, steps: [{ lotId: `${prefix}-lot-1`, analysisType: 'counting' }, { lotId: `${prefix}-lot-2`, analysisType: 'path' }] }],
      runs: [
        { queue: 0, name: `${prefix}-run-done`, advance: 10 },
        { queue: 0, name: `${prefix}-run-failed`, failAtStep: 1, advance: 10 },
        { queue: 0, name: `${prefix}-run-pending` },
      ],
      analyses: [{ lotId: `${prefix}-lot-9`, analysisType: 'replanting', status: 'completed' }],
    }),
  );
  return file;
}

const LISTS = ['/api/v2/templates', '/api/v2/queues', '/api/v2/queue-runs', '/api/v2/analyses'];

beforeAll(async () => {
  // With the access log on: it is read at the end.
  server = await startInProcessService({ accessLog: (line) => accessLog.push(line) });
  [ownerA, ownerB] = await Promise.all([admin<IssuedKey>('accounts', 'create'), admin<IssuedKey>('accounts', 'create')]);
  [subA, subB] = await Promise.all([
    admin<IssuedKey>('keys', 'create', '--account', ownerA.accountId, '--sub-user', 'field-a'),
    admin<IssuedKey>('keys', 'create', '--account', ownerB.accountId, '--sub-user', 'field-b'),
  ]);
  await Promise.all([
    admin('seed', '--account', ownerA.accountId, '--file', fixturesFile('alpha')),
    admin('seed', '--account', ownerB.accountId, '--file', fixturesFile('bravo')),
  ]);
  catalogs = await readCatalogs(server, ownerA.apiKey);
  templatesA = [
    await createTemplate(server, ownerA.apiKey, minimalBody(catalogs, { name: 'alpha-template-1' })),
    await createTemplate(server, subA.apiKey, minimalBody(catalogs, { name: 'alpha-template-2', analysisType: 'path', category: 'vegetation_index', indexName: 'NDRE' })),
  ];
  await createTemplate(server, ownerB.apiKey, minimalBody(catalogs, { name: 'bravo-template-1' }));

  // Everything A can see of its own, by id and name, plus its account and users.
  const ownData = await Promise.all(LISTS.map((path) => listAll<{ id: string; name?: string }>(server, ownerA.apiKey, path)));
  markersOfA = [ownerA.accountId, ownerA.userId, subA.userId, 'alpha-'];
  for (const items of ownData) {
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) markersOfA.push(item.id);
  }
});
afterAll(async () => {
  await server?.stop();
});

/** Nothing of A in the answer, beyond the caller's own request path echoed in an error message. */
function expectNothingOfA(response: Response, what: string, requestPath = ''): void {
  const text = requestPath === '' ? response.text : response.text.split(requestPath.split('?')[0]!).join('');
  for (const marker of markersOfA) expect(text, `${what} shows ${marker}`).not.toContain(marker);
}

interface DocumentedEndpoint {
  method: string;
  path: string;
  auth: boolean;
}

/** Every endpoint of the OpenAPI document, so an endpoint added later joins the matrix by itself. */
async function endpoints(): Promise<DocumentedEndpoint[]> {
  const response = await call('GET', '/api/v2/openapi.json');
  const document = response.body as {
    security?: unknown[];
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  };
  // An operation needs a key unless it says `security: []` (the document's own security applies
  // otherwise). A method a path lacks is declared with its 405 alone: nothing to aim at A there.
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => Object.keys(operation.responses).some((status) => status.startsWith('2')))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        auth: (operation.security ?? document.security ?? []).length > 0,
      })),
  );
}

/** A body the endpoint accepts from B, aimed at A's data where it can be. */
function bodyFor(endpoint: DocumentedEndpoint): unknown {
  if (endpoint.path === '/api/v2/templates/validate-formula') return { formula: 'NIR' };
  if (endpoint.path === '/api/v0/analyses') return { lotId: 'alpha-lot-9' };
  if (endpoint.method === 'POST' || endpoint.method === 'PUT') return minimalBody(catalogs, { name: 'bravo-write' });
  return undefined;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

describe('B’s keys against A’s data, over every endpoint × method', () => {
  it('the OpenAPI document lists the endpoints this matrix knows how to aim at A', async () => {
    const listed = (await endpoints()).map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort();
    expect(listed).toEqual(
      [
        'GET /api/v2/templates',
        'POST /api/v2/templates',
        'GET /api/v2/templates/presets',
        'GET /api/v2/templates/{id}',
        'PUT /api/v2/templates/{id}',
        'DELETE /api/v2/templates/{id}',
        'POST /api/v2/templates/validate-formula',
        'GET /api/v2/catalogs/report-types',
        'GET /api/v2/catalogs/statistics',
        'GET /api/v2/catalogs/vegetation-index-defaults',
        'GET /api/v2/queues',
        'GET /api/v2/queue-runs',
        'GET /api/v2/analyses',
        'POST /api/v0/analyses',
        'GET /api/v2/openapi.json',
      ].sort(),
    );
  });

  it('A’s template ids: GET, PUT and DELETE are 404 exactly as an unknown id; other methods 405 exactly as for an unknown id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const key of [ownerB.apiKey, subB.apiKey]) {
      for (const method of METHODS) {
        const body = method === 'PUT' || method === 'POST' || method === 'PATCH' ? minimalBody(catalogs, { name: 'hijack' }) : undefined;
        const asUnknown = await call(method, `/api/v2/templates/${unknown}`, { key, body });
        for (const template of templatesA) {
          const response = await call(method, `/api/v2/templates/${template.id}`, { key, body });
          const what = `${method} A's ${template.id} with B's key`;
          expect(response.status, what).toBe(asUnknown.status);
          // Word for word what an unknown id gets (a 405 names the path the caller sent).
          expect(response.text, what).toBe(asUnknown.text.split(unknown).join(template.id));
          if (['GET', 'PUT', 'DELETE'].includes(method)) expectError(response, 404, 'NOT_FOUND');
          else if (method === 'HEAD') expect(response.status).toBe(404);
          else expectError(response, 405, 'METHOD_NOT_ALLOWED');
          expect(response.headers.get('allow'), what).toBe(asUnknown.headers.get('allow'));
          expectNothingOfA(response, what, `/api/v2/templates/${template.id}`);
        }
      }
    }
    // A's templates are as they were.
    for (const template of templatesA) {
      const mine = await call('GET', `/api/v2/templates/${template.id}`, { key: ownerA.apiKey });
      expect(mine.body).toEqual(template);
    }
  });

  it('every endpoint and method, for B’s owner and sub-user, shows nothing of A (lists read to the end, filters aimed at A)', async () => {
    let requests = 0;
    for (const key of [ownerB.apiKey, subB.apiKey]) {
      for (const endpoint of await endpoints()) {
        for (const method of METHODS) {
          const documented = method === endpoint.method || (method === 'HEAD' && endpoint.method === 'GET');
          const paths = endpoint.path.includes('{id}') ? templatesA.map((template) => endpoint.path.replace('{id}', template.id)) : [endpoint.path];
          for (const path of paths) {
            const queries = method === 'GET' && documented && !path.includes('/templates/') && path !== '/api/v2/openapi.json' && !path.includes('catalogs')
              ? ['', '?limit=100', '?lotId=alpha-lot-1', '?lotId=alpha-lot-9', '?status=completed&analysisType=replanting', `?reportType=${templatesA[0]!.reportType}`]
              : [''];
            for (const query of queries) {
              const body = documented ? bodyFor({ ...endpoint, method }) : method === 'GET' || method === 'HEAD' ? undefined : {};
              const response = await call(method, path + query, { key, body });
              requests++;
              expect(response.status, `${method} ${path}${query}`).toBeLessThan(500);
              expectNothingOfA(response, `${method} ${path}${query} with B's key`, path);
            }
          }
        }
      }
    }
    // And every page of every list, to the end.
    for (const key of [ownerB.apiKey, subB.apiKey]) {
      for (const path of LISTS) {
        const items = await listAll<unknown>(server, key, path);
        expect(items.length, path).toBeGreaterThan(0);
        const text = JSON.stringify(items);
        for (const marker of markersOfA) expect(text, `${path} of B`).not.toContain(marker);
      }
      const legacy = await call('POST', '/api/v0/analyses', { key, body: {} });
      expect(legacy.status).toBe(200);
      expectNothingOfA(legacy, 'POST /api/v0/analyses {}');
    }
    expect(requests).toBeGreaterThan(200);
  });
});

describe('keys that must not work', () => {
  it('a revoked key is refused on the very next request, on every endpoint, in each of the three headers', async () => {
    const temporary = await admin<IssuedKey>('keys', 'create', '--account', ownerB.accountId, '--sub-user', 'leaving');
    expect((await call('GET', '/api/v2/templates', { key: temporary.apiKey })).status).toBe(200);
    const revoked = await server.adminResult('keys', 'revoke', temporary.apiKey);
    expect(revoked.code, revoked.stderr).toBe(0);
    for (const endpoint of await endpoints()) {
      const path = endpoint.path.replace('{id}', templatesA[0]!.id);
      const headerSets: Array<Record<string, string>> = [{ apiKey: temporary.apiKey }, { 'X-API-Key': temporary.apiKey }, { Authorization: `Bearer ${temporary.apiKey}` }];
      for (const headers of headerSets) {
        const response = await call(endpoint.method, path, { headers, body: bodyFor(endpoint) });
        if (endpoint.auth) expectError(response, 401, 'API_KEY_INVALID');
        else expect(response.status).toBe(200);
      }
    }
    // The account's other keys are untouched.
    expect((await call('GET', '/api/v2/templates', { key: ownerB.apiKey })).status).toBe(200);
    expect((await call('GET', '/api/v2/templates', { key: subB.apiKey })).status).toBe(200);
  });

  it('a valid key only in the query string is never used: 401 API_KEY_MISSING on every endpoint; beside a header key it changes nothing', async () => {
    for (const endpoint of await endpoints()) {
      if (!endpoint.auth) continue;
      const path = endpoint.path.replace('{id}', templatesA[0]!.id);
      for (const name of ['apiKey', 'api_key', 'key', 'apikey', 'x-api-key', 'token']) {
        const response = await call(endpoint.method, `${path}?${name}=${encodeURIComponent(ownerA.apiKey)}`, { body: bodyFor(endpoint) });
        expectError(response, 401, 'API_KEY_MISSING');
      }
      // B's header key with A's key in the query: B's view, nothing of A.
      const mixed = await call(endpoint.method, `${path}?apiKey=${encodeURIComponent(ownerA.apiKey)}`, { key: ownerB.apiKey, body: bodyFor(endpoint) });
      expect(mixed.status).toBeLessThan(500);
      expectNothingOfA(mixed, `${endpoint.method} ${path} with A's key in the query and B's in the header`, path);
    }
  });
});

describe('no key is ever written down', () => {
  const allKeys = () => [ownerA.apiKey, subA.apiKey, ownerB.apiKey, subB.apiKey];

  it('the access log has a line per request, with query-string keys masked and no key anywhere', async () => {
    // A few more requests with keys in every place a client might put one.
    await call('GET', `/api/v2/templates?apiKey=${ownerA.apiKey}&api_key=${ownerA.apiKey}&key=${ownerA.apiKey}&page=1`, { key: ownerB.apiKey });
    await call('GET', `/api/v2/queues?x-api-key=${subA.apiKey}&apiKey[]=${subA.apiKey}&api%4Bey=${subA.apiKey}`);
    await call('GET', `/api/v2/templates/${ownerB.apiKey}`, { key: ownerB.apiKey });
    await call('GET', `/api/v2/analyses?lotId=${subB.apiKey}`, { headers: { Authorization: `Bearer ${subB.apiKey}` } });
    // A long URL is cut in the log and in the answer, after masking: the key at the cut stays hidden.
    // The key starts 8 characters before the log's cut at 2,048.
    const longPath = `/api/v2/nothing/${'x'.repeat(2_024)}${ownerA.apiKey}/${'y'.repeat(8_000)}`;
    const long = await call('GET', longPath, { key: ownerB.apiKey });
    expect(long.status).toBe(404);
    expect((long.body as { message: string }).message.length).toBeLessThan(300);
    const log = accessLog.join('\n');
    expect(log.split('\n').length).toBeGreaterThan(4);
    for (const key of allKeys()) {
      expect(log).not.toContain(key);
      // Nor the part after the visible prefix, in case a key were cut or re-encoded.
      expect(log).not.toContain(key.slice(10));
    }
    expect(log).toMatch(/GET \/api\/v2\/templates\?apiKey=\*\*\*&api_key=\*\*\*&key=\*\*\*&page=1 200 /);
    expect(log).toMatch(/GET \/api\/v2\/queues\?x-api-key=\*\*\*&apiKey\[\]=\*\*\*&api%4Bey=\*\*\* 401 /);
    expect(log).toMatch(/GET \/api\/v2\/templates\/rctl_\*\*\* 404 /);
    const longLine = log.split('\n').find((line) => line.includes('/api/v2/nothing/'));
    expect(longLine).toMatch(/xrctl_\*\*\*…\(\d+ more\) 404 /);
    expect(longLine!.length).toBeLessThan(2_200);
    expect(longLine).toContain(`${'x'.repeat(8)}rctl_***…`);
  });

  it('no response body ever carried a key', () => {
    // Every answer of every test above (run the file whole: with -t, fewer were collected).
    expect(bodiesSeen.length).toBeGreaterThan(0);
    for (const text of bodiesSeen) for (const key of allKeys()) expect(text).not.toContain(key);
  });

  it('`reportctl --verbose` traces requests with the key redacted, from the environment, the flag, and on a 401', async () => {
    const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: ownerB.apiKey };
    const runs = [
      ...(await Promise.all([
        runInProcess(['templates', 'list', '--verbose'], { env }),
        runInProcess(['templates', 'list', '--verbose', '--api-key', subB.apiKey], { env: { REPORTCTL_BASE_URL: server.url } }),
      ])),
      ...(await Promise.all([
        runInProcess(['api', 'GET', '/api/v2/queues', '--verbose'], { env }),
        // A wrong key that contains a valid one: a 401, and still nothing of it printed.
        runInProcess(['templates', 'list', '--verbose'], { env: { ...env, REPORTCTL_API_KEY: `${ownerB.apiKey}x` } }),
      ])),
    ];
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 3]);
    for (const run of runs) {
      expect(run.stderr).toMatch(/> apiKey: <redacted>/);
      for (const key of allKeys()) {
        expect(run.stderr).not.toContain(key);
        expect(run.stdout).not.toContain(key);
      }
    }
  });
});
