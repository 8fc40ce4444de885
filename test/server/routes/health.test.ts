import { describe, expect, it } from 'vitest';
import { listeningApp } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-http.js';

/** GET /healthz (src/server/routes/health.ts): for harnesses that wait for serve. */

describe('GET /healthz', () => {
  it('answers 200 without a key, a rate limit or a place in the OpenAPI document', async () => {
    const { url } = await listeningApp();
    // Not the API's: fetch, as a harness would, rather than rawRequest and its OpenAPI checks.
    for (let i = 0; i < 60; i++) {
      const answer = await fetch(`${url}/healthz`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: 'ok' });
      expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    expect((await fetch(`${url}/healthz`, { method: 'HEAD' })).status).toBe(200);
    // Past the read limit (50) with no 429; an API request still has its whole bucket.
    expect((await rawRequest(url, { method: 'GET', target: '/api/v2/templates' })).headers['x-ratelimit-remaining']).toBe('49');
    const document = (await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' })).json as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).some((path) => path.includes('health'))).toBe(false);
  });

  it('answers 503 once the service is shutting down', async () => {
    const { app, store, url } = await listeningApp();
    // The health request waits in a fault while close() begins.
    const fault = store.faults.add({ method: 'GET', path: '/healthz', kind: 'latency', status: null, latencyMs: 1000, rate: 1, remaining: 1, accountId: null });
    const answering = fetch(`${url}/healthz`);
    await expect.poll(() => store.faults.list().find(({ id }) => id === fault.id)?.remaining).toBe(0);
    const closing = app.close();
    const answer = await answering;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'shutting down' });
    expect(answer.headers.get('retry-after')).toBe('1');
    await closing;
  });
});
