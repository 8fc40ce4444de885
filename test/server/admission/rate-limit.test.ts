import { beforeAll, describe, expect, it } from 'vitest';
import { api, serverForSuite, type IssuedKey } from '../../helpers/server.js';
import {
  createTemplate,
  expectError,
  expectRateLimitHeaders,
  minimalBody,
  readCatalogs,
  type ApiResponse,
  type CatalogsOverHttp,
  type Page,
  type TemplateDoc,
} from '../../helpers/http.js';

/**
 * docs/decisions.md: "Limits" on a suite.server started with the limits left at their defaults (120 reads
 * and 30 writes per account per rolling minute). Each test uses a fresh account, so each
 * starts with full buckets; everything here runs well within one minute.
 */

const suite = serverForSuite({ defaultLimits: true });
let catalogs: CatalogsOverHttp;

const newAccount = () => suite.server.admin<IssuedKey>('accounts', 'create');

beforeAll(async () => {
  // Catalog reads spend this account's reads, not the tests'.
  catalogs = await readCatalogs(suite.server, (await newAccount()).apiKey);
});

function expectRetryAfter(response: ApiResponse): number {
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter, 'Retry-After on a 429').toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  return seconds;
}

describe('reads: 120 per minute', () => {
  it('120 reads succeed, the 121st is 429 RATE_LIMITED with Retry-After; writes are a separate bucket', async () => {
    const account = await newAccount();
    const readPaths = ['/api/v2/templates', '/api/v2/queues', '/api/v2/queue-runs', '/api/v2/analyses', '/api/v2/catalogs/statistics'];
    for (let i = 0; i < 120; i++) {
      const response = await api(suite.server, 'GET', readPaths[i % readPaths.length]!, { key: account.apiKey });
      expect(response.status, `read ${i + 1}`).toBe(200);
      expectRateLimitHeaders(response, 120);
      expect(Number(response.headers.get('x-ratelimit-remaining')), `remaining after read ${i + 1}`).toBe(119 - i);
    }
    const refused = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expectError(refused, 429, 'RATE_LIMITED');
    expectRetryAfter(refused);
    expectRateLimitHeaders(refused, 120);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    // Every kind of read is refused now, the v0 listing included.
    expectError(await api(suite.server, 'POST', '/api/v0/analyses', { key: account.apiKey, body: {} }), 429, 'RATE_LIMITED');
    // Writes still have their own 30.
    const write = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: minimalBody(catalogs) });
    expect(write.status).toBe(201);
    expectRateLimitHeaders(write, 30);
    // Another account is not affected.
    const other = await newAccount();
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: other.apiKey })).status).toBe(200);
  });

  it('POST /api/v0/analyses counts as a read; validate-formula, though it only reads, as a write', async () => {
    const account = await newAccount();
    const remaining = (response: ApiResponse) => Number(response.headers.get('x-ratelimit-remaining'));
    const first = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect(remaining(first)).toBe(119);
    const legacy = await api(suite.server, 'POST', '/api/v0/analyses', { key: account.apiKey, body: {} });
    expect(legacy.status).toBe(200);
    expectRateLimitHeaders(legacy, 120);
    expect(remaining(legacy)).toBe(118);
    const validated = await api(suite.server, 'POST', '/api/v2/templates/validate-formula', { key: account.apiKey, body: { formula: 'NIR + R' } });
    expect(validated.status).toBe(200);
    expectRateLimitHeaders(validated, 30);
    expect(remaining(validated)).toBe(29);
    const write = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: minimalBody(catalogs) });
    expectRateLimitHeaders(write, 30);
    expect(remaining(write)).toBe(28);
    const after = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect(remaining(after)).toBe(117);
  });

  it('owner and sub-users share the account’s buckets', async () => {
    const account = await newAccount();
    const sub = await suite.server.admin<IssuedKey>('keys', 'create', '--account', account.accountId, '--sub-user', 'x');
    for (let i = 0; i < 60; i++) expect((await api(suite.server, 'GET', '/api/v2/queues', { key: account.apiKey })).status).toBe(200);
    for (let i = 0; i < 60; i++) expect((await api(suite.server, 'GET', '/api/v2/queues', { key: sub.apiKey })).status).toBe(200);
    expectError(await api(suite.server, 'GET', '/api/v2/queues', { key: sub.apiKey }), 429, 'RATE_LIMITED');
    expectError(await api(suite.server, 'GET', '/api/v2/queues', { key: account.apiKey }), 429, 'RATE_LIMITED');
  });
});

describe('writes: 30 per minute', () => {
  it('30 writes (POST, PUT, DELETE) succeed, the 31st is 429 and changes nothing', async () => {
    const account = await newAccount();
    const created: TemplateDoc[] = [];
    for (let i = 0; i < 26; i++) {
      const response = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: minimalBody(catalogs, { name: `w${i}` }) });
      expect(response.status, `write ${i + 1}`).toBe(201);
      expectRateLimitHeaders(response, 30);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(29 - i);
      created.push(response.body as TemplateDoc);
    }
    for (let i = 0; i < 2; i++) {
      const put = await api(suite.server, 'PUT', `/api/v2/templates/${created[i]!.id}`, { key: account.apiKey, body: minimalBody(catalogs, { name: 'renamed' }) });
      expect(put.status).toBe(200);
      expectRateLimitHeaders(put, 30);
    }
    for (let i = 2; i < 4; i++) {
      const deleted = await api(suite.server, 'DELETE', `/api/v2/templates/${created[i]!.id}`, { key: account.apiKey });
      expect(deleted.status).toBe(204);
      expectRateLimitHeaders(deleted, 30);
    }
    expect(Number((await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey })).headers.get('x-ratelimit-limit'))).toBe(120);

    const refused = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: minimalBody(catalogs, { name: 'one too many' }) });
    expectError(refused, 429, 'RATE_LIMITED');
    expectRetryAfter(refused);
    expectRateLimitHeaders(refused, 30);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expectError(await api(suite.server, 'DELETE', `/api/v2/templates/${created[5]!.id}`, { key: account.apiKey }), 429, 'RATE_LIMITED');
    expectError(
      await api(suite.server, 'PUT', `/api/v2/templates/${created[6]!.id}`, { key: account.apiKey, body: minimalBody(catalogs, { name: 'nope' }) }),
      429,
      'RATE_LIMITED',
    );

    // Refused writes did nothing; reads still work.
    const list = await api(suite.server, 'GET', '/api/v2/templates?limit=100', { key: account.apiKey });
    expect(list.status).toBe(200);
    const envelope = list.body as Page<TemplateDoc>;
    expect(envelope.total).toBe(24);
    expect(envelope.data.map((t) => t.name)).not.toContain('one too many');
    expect(envelope.data.map((t) => t.id)).toContain(created[5]!.id);
    expect(envelope.data.find((t) => t.id === created[6]!.id)!.name).toBe('w6');
  });
});

describe('rate-limit headers on every response, errors included', () => {
  let account: IssuedKey;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('on 200, 201, 204, 400, 404, 405, 415 and 401', async () => {
    const doc = await createTemplate(suite.server, account.apiKey, minimalBody(catalogs));
    expectRateLimitHeaders(await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: account.apiKey }), 120);
    const deleted = await api(suite.server, 'DELETE', `/api/v2/templates/${doc.id}`, { key: account.apiKey });
    expect(deleted.status).toBe(204);
    expectRateLimitHeaders(deleted, 30);

    const notFound = await api(suite.server, 'GET', '/api/v2/templates/no-such-id', { key: account.apiKey });
    expectError(notFound, 404, 'NOT_FOUND');
    expectRateLimitHeaders(notFound, 120);
    const unknownRoute = await api(suite.server, 'GET', '/api/v2/no-such-route', { key: account.apiKey });
    expectError(unknownRoute, 404, 'NOT_FOUND');
    expectRateLimitHeaders(unknownRoute);

    const badQuery = await api(suite.server, 'GET', '/api/v2/templates?limit=0', { key: account.apiKey });
    expectError(badQuery, 400, 'VALIDATION_FAILED');
    expectRateLimitHeaders(badQuery, 120);
    const badBody = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: { ...minimalBody(catalogs), mapResolution: '150' } });
    expectError(badBody, 400, 'VALIDATION_FAILED');
    expectRateLimitHeaders(badBody, 30);

    const wrongMethod = await api(suite.server, 'PATCH', '/api/v2/templates', { key: account.apiKey, body: {} });
    expectError(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
    expectRateLimitHeaders(wrongMethod);
    const wrongType = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expectError(wrongType, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectRateLimitHeaders(wrongType, 30);

    const missing = await api(suite.server, 'GET', '/api/v2/templates');
    expectError(missing, 401, 'API_KEY_MISSING');
    expectRateLimitHeaders(missing, 120);
    const invalid = await api(suite.server, 'POST', '/api/v2/templates', { key: 'rctl_not-a-key', body: minimalBody(catalogs) });
    expectError(invalid, 401, 'API_KEY_INVALID');
    expectRateLimitHeaders(invalid, 30);
  });

  it('requests without a valid key are limited per client address', async () => {
    // This file's earlier keyless requests share the bucket: spend what is left, then one more.
    let response = await api(suite.server, 'GET', '/api/v2/templates');
    expectRateLimitHeaders(response, 120);
    let remaining = Number(response.headers.get('x-ratelimit-remaining'));
    while (remaining > 0) {
      response = await api(suite.server, 'GET', '/api/v2/templates', { key: 'rctl_unknown' });
      expectError(response, 401, 'API_KEY_INVALID');
      remaining = Number(response.headers.get('x-ratelimit-remaining'));
    }
    const refused = await api(suite.server, 'GET', '/api/v2/templates');
    expectError(refused, 429, 'RATE_LIMITED');
    expectRetryAfter(refused);
    expectRateLimitHeaders(refused, 120);
    // A valid key is counted against its own account, not the address.
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: (await newAccount()).apiKey })).status).toBe(200);
  });
});
