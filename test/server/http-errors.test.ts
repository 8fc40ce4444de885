import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { api } from '../helpers/server.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import {
  createTemplate,
  expectError,
  expectIssues,
  fullBody,
  minimalBody,
  readCatalogs,
  type CatalogsOverHttp,
  type Page,
  type TemplateDoc,
} from '../helpers/http.js';

/**
 * Every row of docs/decisions.md (Errors) (429 is in http-rate-limits.test.ts; a 500 cannot be
 * provoked from outside), each with its exact body, over real HTTP.
 */

const suite = inProcessServiceForSuite();
let catalogs: CatalogsOverHttp;

beforeAll(async () => {
  catalogs = await readCatalogs(suite.server, suite.account.apiKey);
});

const post = (body: unknown) => api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });

describe('400 VALIDATION_FAILED: template bodies, with the exact issue path', () => {
  const valid = () => minimalBody(catalogs, { analysisType: 'counting', category: 'general' });
  const stats = () => catalogs.statistics.counting;

  it('a number sent as text is rejected at its field, naming the field but not the reason', async () => {
    const body = expectIssues(await post({ ...valid(), mapResolution: '150' }), 'mapResolution');
    const issue = body.issues!.find((candidate) => candidate.path === 'mapResolution')!;
    expect(issue.message).toContain('mapResolution');
    expect(issue.message).not.toMatch(/number|string|expected|received|type/i);
    expect(body.issues!.map((candidate) => candidate.path)).toEqual(['mapResolution']);
  });

  it('an invented reportType is rejected at `reportType`; no message lists the valid report types', async () => {
    const response = await post({ ...valid(), reportType: 'plant_count_summary_v9' });
    const body = expectIssues(response, 'reportType');
    const everyKey = Object.values(catalogs.reportTypes).flatMap((entries) => entries.map((entry) => entry.key));
    for (const key of everyKey) expect(response.text).not.toContain(key);
    expect(body.issues!.find((issue) => issue.path === 'reportType')!.message).toContain('reportType');
  });

  it('an invented statistic is rejected at its index; no message lists the valid statistics', async () => {
    const response = await post({ ...valid(), selectedStatistics: [stats()[0], stats()[1], 'plantHappiness'] });
    const body = expectIssues(response, 'selectedStatistics.2');
    expect(body.issues!.map((issue) => issue.path)).toEqual(['selectedStatistics.2']);
    expect(body.issues![0]!.message).toContain('selectedStatistics');
    for (const statistic of stats().slice(2)) expect(response.text).not.toContain(statistic);
  });

  it('a statistic of another analysis type is not in this type’s catalog', async () => {
    const foreign = catalogs.statistics.path.find((statistic) => !stats().includes(statistic))!;
    expectIssues(await post({ ...valid(), selectedStatistics: [foreign] }), 'selectedStatistics.0');
  });

  it.each([
    ['margins.top', { margins: { top: -1, right: 2, bottom: 2, left: 2 } }],
    ['margins.top', { margins: { top: '2', right: 2, bottom: 2, left: 2 } }],
    ['margins.left', { margins: { top: 2, right: 2, bottom: 2 } }],
    ['layouts.portrait.elements.0.x', { layouts: { portrait: { elements: [{ type: 'map', x: 1.5, y: 0, width: 0.1, height: 0.1 }] } } }],
    ['layouts.portrait.elements.0.x', { layouts: { portrait: { elements: [{ type: 'map', x: '0.1', y: 0, width: 0.1, height: 0.1 }] } } }],
    ['layouts.landscape.elements.1.type', {
      layouts: {
        landscape: {
          elements: [
            { type: 'map', x: 0, y: 0, width: 0.5, height: 0.5 },
            { type: 'chart', x: 0, y: 0.5, width: 0.5, height: 0.5 },
          ],
        },
      },
    }],
    ['layouts', { layouts: {} }],
    ['layouts.portrait.elements', { layouts: { portrait: {} } }],
    ['mapResolution', { mapResolution: 71 }],
    ['mapResolution', { mapResolution: 1201 }],
    ['paperSize', { paperSize: 'a5' }],
    ['saviL', { saviL: 1.5 }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(201) }],
    ['analysisType', { analysisType: 'orchard' }],
    ['reportCategory', { reportCategory: 'index' }],
    ['selectedStatistics.1', { selectedStatistics: ['totalPlants', 'totalPlants'] }],
    ['colour', { colour: '#ffffff' }],
  ])('rejects at %s: %j', async (path, change) => {
    expectIssues(await post({ ...valid(), ...change }), path);
  });

  it('each unknown top-level field is reported at its own name', async () => {
    const body = expectIssues(await post({ ...valid(), colour: 'red', pageCount: 3 }), 'colour', 'pageCount');
    expect(body.issues!.map((issue) => issue.path).sort()).toEqual(['colour', 'pageCount']);
  });

  it('a box that leaves the page (x + width > 1) is reported inside the element', async () => {
    const body = expectError(
      await post({ ...valid(), layouts: { portrait: { elements: [{ type: 'map', x: 0.6, y: 0, width: 0.5, height: 0.5 }] } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(body.issues!.map((issue) => issue.path).every((path) => path.startsWith('layouts.portrait.elements.0.'))).toBe(true);
  });

  it('a missing required field is reported at its name', async () => {
    const { name: _name, reportTypeId: _id, ...rest } = valid();
    expectIssues(await post(rest), 'name', 'reportTypeId');
  });

  it('reportTypeId and reportCategory must match the catalog entry of the reportType', async () => {
    const other = catalogs.reportTypes.counting.find((entry) => entry.key !== valid().reportType)!;
    expectIssues(await post({ ...valid(), reportTypeId: other.id }), 'reportTypeId');
    expectIssues(await post({ ...valid(), reportCategory: 'vegetation_index', indexName: 'NDVI' }), 'reportCategory');
    // A report type of another analysis type is not a key for this one.
    const pathEntry = catalogs.reportTypes.path[0]!;
    expectIssues(await post({ ...valid(), reportType: pathEntry.key, reportTypeId: pathEntry.id }), 'reportType');
  });

  it('vegetation-index rules: indexName, formula, saviL and colorScale, each at its field', async () => {
    const vi = () => fullBody(catalogs, 'vi');
    const { indexName: _i, ...noIndex } = vi();
    expectIssues(await post(noIndex), 'indexName');
    expectIssues(await post({ ...vi(), indexName: 'GNDVI' }), 'indexName');
    const { formula: _f, ...noFormula } = vi();
    expectIssues(await post(noFormula), 'formula');
    expectIssues(await post({ ...vi(), formula: 'NIR / R' }), 'formula');
    expectIssues(await post({ ...vi(), formula: 'nir + R' }), 'formula');
    const { saviL: _l, ...noSaviL } = vi();
    expectIssues(await post(noSaviL), 'saviL');
    expectIssues(await post({ ...vi(), indexName: 'NDVI' }), 'formula');
    expectIssues(await post({ ...vi(), colorScale: { stops: [{ value: 0, color: '#000000' }] } }), 'colorScale.stops');
    expectIssues(await post({ ...vi(), colorScale: { stops: [{ value: 0, color: 'green' }, { value: 1, color: '#ffffff' }] } }), 'colorScale.stops.0.color');
    const descending = expectError(
      await post({ ...vi(), colorScale: { stops: [{ value: 1, color: '#000000' }, { value: 0, color: '#ffffff' }] } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(descending.issues!.every((issue) => issue.path.startsWith('colorScale.stops'))).toBe(true);
    // Index fields on a general template.
    expectIssues(await post({ ...valid(), indexName: 'NDVI' }), 'indexName');
  });

  it('several broken fields are all reported at once', async () => {
    expectIssues(await post({ ...valid(), mapResolution: '150', paperSize: 'a9', margins: { top: -1, right: 2, bottom: 2, left: 2 } }), 'mapResolution', 'paperSize', 'margins.top');
  });

  it('a body that is not an object is 400 at the path ""', async () => {
    for (const rawBody of ['[]', '"template"', '42', 'null']) {
      const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
      expectIssues(response, '');
    }
  });

  it('malformed JSON is 400 with exactly one issue at the path ""', async () => {
    for (const rawBody of ['{"name": "x",', '{name: 1}', "{'a': 1}", '{"a": 1}}']) {
      const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
      const body = expectError(response, 400, 'VALIDATION_FAILED');
      expect(body.issues!.length, rawBody).toBe(1);
      expect(body.issues![0]!.path).toBe('');
    }
    const forFormula = await api(suite.server, 'POST', '/api/v2/templates/validate-formula', {
      key: suite.account.apiKey,
      rawBody: '{"formula": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectError(forFormula, 400, 'VALIDATION_FAILED').issues).toEqual([{ path: '', message: expect.any(String) }]);
  });

  it('nothing is stored by a rejected create', async () => {
    const account = await suite.server.newAccount();
    await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: { ...valid(), mapResolution: '150' } });
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect((list.body as Page<TemplateDoc>).total).toBe(0);
  });
});

describe('401: API keys', () => {
  it('no key is API_KEY_MISSING on every kind of endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/templates'],
      ['GET', '/api/v2/templates/presets'],
      ['GET', '/api/v2/templates/some-id'],
      ['GET', '/api/v2/catalogs/report-types'],
      ['GET', '/api/v2/queues'],
      ['GET', '/api/v2/queue-runs'],
      ['GET', '/api/v2/analyses'],
    ] as const) {
      expectError(await api(suite.server, method, path), 401, 'API_KEY_MISSING');
    }
    expectError(await api(suite.server, 'POST', '/api/v2/templates', { body: minimalBody(catalogs) }), 401, 'API_KEY_MISSING');
    expectError(await api(suite.server, 'DELETE', '/api/v2/templates/some-id'), 401, 'API_KEY_MISSING');
    expectError(await api(suite.server, 'POST', '/api/v2/templates/validate-formula', { body: { formula: 'NIR' } }), 401, 'API_KEY_MISSING');
    expectError(await api(suite.server, 'POST', '/api/v0/analyses', { body: {} }), 401, 'API_KEY_MISSING');
  });

  it('an unknown key is API_KEY_INVALID, in any of the three headers', async () => {
    const bogus = 'rctl_' + 'x'.repeat(43);
    expectError(await api(suite.server, 'GET', '/api/v2/templates', { key: bogus }), 401, 'API_KEY_INVALID');
    expectError(await api(suite.server, 'GET', '/api/v2/templates', { headers: { 'X-API-Key': bogus } }), 401, 'API_KEY_INVALID');
    expectError(await api(suite.server, 'GET', '/api/v2/templates', { headers: { Authorization: `Bearer ${bogus}` } }), 401, 'API_KEY_INVALID');
    // Almost the right key is still the wrong key.
    expectError(await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey.slice(0, -1) }), 401, 'API_KEY_INVALID');
  });

  it('a valid key only in the query string is refused', async () => {
    for (const name of ['apiKey', 'api_key', 'apikey', 'key', 'token']) {
      const response = await api(suite.server, 'GET', `/api/v2/templates?${name}=${encodeURIComponent(suite.account.apiKey)}`);
      expect(response.status, name).toBe(401);
      expect(['API_KEY_MISSING', 'API_KEY_INVALID']).toContain((response.body as { error: string }).error);
      expectError(response, 401, (response.body as { error: string }).error);
    }
  });

  it('apiKey, X-API-Key and Authorization: Bearer are all accepted and see the same data', async () => {
    await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    const viaApiKey = await api(suite.server, 'GET', '/api/v2/templates', { headers: { apiKey: suite.account.apiKey } });
    const viaX = await api(suite.server, 'GET', '/api/v2/templates', { headers: { 'X-API-Key': suite.account.apiKey } });
    const viaBearer = await api(suite.server, 'GET', '/api/v2/templates', { headers: { Authorization: `Bearer ${suite.account.apiKey}` } });
    for (const response of [viaApiKey, viaX, viaBearer]) expect(response.status).toBe(200);
    expect((viaApiKey.body as Page<TemplateDoc>).total).toBeGreaterThan(0);
    expect(viaX.body).toEqual(viaApiKey.body);
    expect(viaBearer.body).toEqual(viaApiKey.body);
    const created = await api(suite.server, 'POST', '/api/v2/templates', {
      headers: { Authorization: `Bearer ${suite.account.apiKey}` },
      body: minimalBody(catalogs),
    });
    expect(created.status).toBe(201);
    expect((created.body as TemplateDoc).userId).toBe(suite.account.userId);
  });
});

describe('403 PLAN_LIMIT_EXCEEDED', () => {
  it('a create at the account’s template limit is refused; a delete makes room again', async () => {
    const limited = await suite.server.newAccount({ templateLimit: 3 });
    const made: TemplateDoc[] = [];
    for (let i = 0; i < 3; i++) made.push(await createTemplate(suite.server, limited.apiKey, minimalBody(catalogs)));
    expectError(await api(suite.server, 'POST', '/api/v2/templates', { key: limited.apiKey, body: minimalBody(catalogs) }), 403, 'PLAN_LIMIT_EXCEEDED');
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: limited.apiKey });
    expect((list.body as Page<TemplateDoc>).total).toBe(3);
    // A replacement is not a new template.
    const replaced = await api(suite.server, 'PUT', `/api/v2/templates/${made[0]!.id}`, { key: limited.apiKey, body: minimalBody(catalogs) });
    expect(replaced.status).toBe(200);
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${made[1]!.id}`, { key: limited.apiKey })).status).toBe(204);
    await createTemplate(suite.server, limited.apiKey, minimalBody(catalogs));
    expectError(await api(suite.server, 'POST', '/api/v2/templates', { key: limited.apiKey, body: minimalBody(catalogs) }), 403, 'PLAN_LIMIT_EXCEEDED');
  });
});

describe('404 NOT_FOUND', () => {
  it('unknown ids for GET, PUT and DELETE', async () => {
    expectError(await api(suite.server, 'GET', '/api/v2/templates/nope', { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: minimalBody(catalogs) }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'DELETE', '/api/v2/templates/nope', { key: suite.account.apiKey }), 404, 'NOT_FOUND');
  });

  it('a PUT to an unknown id is 404 whatever its body: the id is looked up before the body is checked', async () => {
    const invalid = { ...minimalBody(catalogs), name: 5, reportType: 'no-such-type' };
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: invalid }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: [] }), 404, 'NOT_FOUND');
  });

  it('unknown routes', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/nothing-here'],
      ['GET', '/api/v3/templates'],
      ['GET', '/api/v1/templates'],
      ['GET', '/api/v2/catalogs/colours'],
      ['GET', '/api/v2/templates/some-id/versions'],
      ['POST', '/api/v2/queue-runs/run-1/retry'],
      ['GET', '/no-such-page'],
      ['GET', '/api/v0/analyses/extra'],
    ] as const) {
      expectError(await api(suite.server, method, path, { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    }
  });
});

describe('405 METHOD_NOT_ALLOWED', () => {
  it.each([
    ['PATCH', '/api/v2/templates', ['GET', 'POST']],
    ['DELETE', '/api/v2/templates', ['GET', 'POST']],
    ['GET', '/api/v2/templates/validate-formula', ['POST']],
    ['PUT', '/api/v2/templates/validate-formula', ['POST']],
    ['POST', '/api/v2/queue-runs', ['GET']],
    ['POST', '/api/v2/queues', ['GET']],
    ['PUT', '/api/v2/catalogs/statistics', ['GET']],
    ['POST', '/api/v2/templates/presets', ['GET']],
    ['PATCH', '/api/v2/templates/some-id', ['GET', 'PUT', 'DELETE']],
    ['GET', '/api/v0/analyses', ['POST']],
  ] as const)('%s %s is 405 with Allow listing %j', async (method, path, allowed) => {
    const response = await api(suite.server, method, path, {
      key: suite.account.apiKey,
      ...(method === 'GET' ? {} : { body: {} }),
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter(Boolean);
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).not.toContain(method);
  });
});

describe('413 PAYLOAD_TOO_LARGE', () => {
  it('a body over 1 MiB is refused; one just under it is read', async () => {
    const tooBig = JSON.stringify({ ...minimalBody(catalogs), name: 'x'.repeat(1024 * 1024 + 10) });
    const response = await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      rawBody: tooBig,
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    // Under the limit the body is parsed and validated (a 201-char name is only too long).
    const almost = JSON.stringify({ ...minimalBody(catalogs), name: 'x'.repeat(1024 * 1024 - 500) });
    expect(Buffer.byteLength(almost)).toBeLessThan(1024 * 1024);
    expectIssues(
      await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody: almost, headers: { 'content-type': 'application/json' } }),
      'name',
    );
  });
});

describe('415 UNSUPPORTED_MEDIA_TYPE', () => {
  it('POST and PUT bodies that are not application/json are refused', async () => {
    const json = JSON.stringify(minimalBody(catalogs));
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      expectError(
        await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody: json, headers: { 'content-type': contentType } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    const doc = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    expectError(
      await api(suite.server, 'PUT', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey, rawBody: json, headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await api(suite.server, 'POST', '/api/v2/templates/validate-formula', {
        key: suite.account.apiKey,
        rawBody: '{"formula":"NIR"}',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // The template was not changed by the refused PUT.
    expect((await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey })).body).toEqual(doc);
  });

  it.each([
    ['a media type it does not take', 'application/x-www-form-urlencoded', () => suite.account.apiKey, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a Content-Type that is not one media type', 'application/json, text/plain', () => suite.account.apiKey, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an unknown key (refused before the body)', 'application/json', () => 'rctl_unknown', 401, 'API_KEY_INVALID'],
  ])('a body refused for %s is read to its end first, so a client still sending it gets the answer, not a reset', async (_what, contentType, key, status, code) => {
    const body = Buffer.from(`{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const url = new URL(suite.server.url);
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    const head = `POST /api/v2/templates HTTP/1.1\r\nHost: ${url.host}\r\napiKey: ${key()}\r\ncontent-type: ${contentType}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    socket.write(head);
    socket.write(body.subarray(0, body.length / 2));
    // Half the body sent: the service waits for the rest instead of answering and closing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Buffer.concat(received).length).toBe(0);
    socket.end(body.subarray(body.length / 2));
    await closed;
    const answer = Buffer.concat(received).toString('utf8');
    expect(answer.startsWith(`HTTP/1.1 ${status} `), answer.slice(0, 200)).toBe(true);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: code });
  });

  it('application/json with a charset is JSON', async () => {
    const response = await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      rawBody: JSON.stringify(minimalBody(catalogs)),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });
});

describe('error messages never echo a key', () => {
  it('a key pasted into an unknown path or a wrong-method path is masked in the 404/405 message', async () => {
    const notFound = await api(suite.server, 'GET', `/api/v2/${suite.account.apiKey}/oops`, { key: suite.account.apiKey });
    expect(notFound.status).toBe(404);
    expect(notFound.text).not.toContain(suite.account.apiKey);
    expect((notFound.body as { message: string }).message).toContain('rctl_***');
    const wrongMethod = await api(suite.server, 'PATCH', `/api/v2/templates/${suite.account.apiKey}`, { key: suite.account.apiKey });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.text).not.toContain(suite.account.apiKey);
  });
});
