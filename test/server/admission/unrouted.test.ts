import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { expectError } from '../../helpers/http.js';

/** Step 7 of the gate (src/server/admission/unrouted.ts): a path no endpoint has is a 404, a method it lacks a 405. */

const suite = inProcessServiceForSuite();

describe('404 NOT_FOUND', () => {
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
