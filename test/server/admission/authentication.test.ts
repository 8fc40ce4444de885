import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { createTemplate, expectError, minimalBody, readCatalogs, type CatalogsOverHttp, type Page, type TemplateDoc } from '../../helpers/http.js';

/** Step 8 of the gate (src/server/admission/authentication.ts): a valid key, in one of the three headers, or 401. */

const suite = inProcessServiceForSuite();
let catalogs: CatalogsOverHttp;

beforeAll(async () => {
  catalogs = await readCatalogs(suite.server, suite.account.apiKey);
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
