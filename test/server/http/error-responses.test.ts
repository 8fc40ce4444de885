import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { expectError, expectIssues, minimalBody, readCatalogs, type CatalogsOverHttp } from '../../helpers/http.js';

/** Fastify's own refusals in the service's error shape (src/server/http/error-responses.ts). */

const suite = inProcessServiceForSuite();
let catalogs: CatalogsOverHttp;

beforeAll(async () => {
  catalogs = await readCatalogs(suite.server, suite.account.apiKey);
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
