import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/listen.js';
import { attackedServerForSuite, eventually } from '../../helpers/slow-clients.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { openStore } from '../../../src/server/open-store.js';
import type { IssuedKey, Store } from '../../../src/server/store/index.js';
import { runCli } from '../../../src/cli/program.js';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http.js';
import { testDeps } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';

/**
 * DNS rebinding: a page on evil.example whose name is made to resolve to 127.0.0.1 reads the
 * service as its own origin, its requests carrying `Host: evil.example`. The service answers
 * only the names it listens as, on a real socket, for the dashboard, the OpenAPI document and
 * the API alike.
 */

let store: Store;
let app: FastifyInstance;
let url: string;
let owner: IssuedKey;
const accessLog: string[] = [];

beforeAll(async () => {
  const dashboardDir = tempDir();
  writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>dashboard</title>');
  writeFileSync(join(dashboardDir, 'main-ABC.js'), 'export {};');
  store = openStore(join(tempDir(), 'service.db'));
  owner = store.accounts.create();
  app = buildApp({
    store,
    readsPerMinute: 1000,
    writesPerMinute: 1000,
    dashboardDir,
    hostNames: ['127.0.0.1', 'reports.lan'],
    accessLog: (line) => accessLog.push(line),
  });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  store?.close();
});

const port = () => new URL(url).port;
const get = (target: string, host: string, key?: string): Promise<RawAnswer> =>
  rawRequest(url, { method: 'GET', target, omitHost: true, headers: [['Host', host], ...(key ? [['apiKey', key] as [string, string]] : [])] });

const TARGETS = ['/', '/dashboard/main-ABC.js', '/api/v2/openapi.json', '/api/v2/templates'];

function expectRefused(answer: RawAnswer, host: string): void {
  expect(answer.status, host).toBe(400);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual({
    error: 'VALIDATION_FAILED',
    message: 'Request failed validation',
    issues: [{ path: '', message: `Host ${host} is not a name of this service; start it with --allow-host NAME to add one` }],
  });
}

describe('a request addressed to another name (DNS rebinding)', () => {
  it('is refused on the dashboard, the OpenAPI document and the API, even with a valid key', async () => {
    for (const target of TARGETS) {
      const host = `evil.example:${port()}`;
      const refused = await get(target, host, owner.apiKey);
      expectRefused(refused, host);
      expect(refused.text, target).not.toMatch(/dashboard|openapi|"items"/);
      // Before the key and the rate limit: it spends nothing, and says where the client
      // address's bucket stands (full: no request of this test spends from it).
      expect(refused.headers['x-ratelimit-limit']).toBe('1000');
      expect(refused.headers['x-ratelimit-remaining']).toBe('1000');
      // The same request addressed to the service is answered (fetch sends Host 127.0.0.1:PORT).
      const answered = await fetch(url + target, { headers: { apiKey: owner.apiKey } });
      expect(answered.status, target).toBe(200);
      // Read to the end: a keep-alive connection with an unread answer holds app.close() open.
      await answered.arrayBuffer();
    }
    expect(accessLog.join('\n')).toMatch(/GET \/api\/v2\/templates 400 /);
  });

  it('names that only look like the service are refused too', async () => {
    for (const host of ['127.0.0.1.evil.example', 'localhost.evil.example', 'evil.example', '10.0.0.1', `reports.lan.evil.example:${port()}`]) {
      expectRefused(await get('/api/v2/openapi.json', host), host);
    }
  });

  it('a bracketed address is an IPv6 address and at most a port: anything else after it, or inside it, is refused', async () => {
    for (const host of ['[::1].evil.example', '[::1]anything', `[::1]:${port()}x`, '[::1]:80:80', '[evil.example]', '[127.0.0.1]', '[::1', '[]']) {
      expectRefused(await get('/api/v2/openapi.json', host), host);
      expectRefused(await get('/', host), host);
    }
  });
});

describe('a request without Host', () => {
  it('is refused 400 on every path, the dashboard and the health check included', async () => {
    for (const target of [...TARGETS, '/healthz', '/no/such/path']) {
      const refused = await rawRequest(url, { method: 'GET', target, omitHost: true });
      expect(refused.status, target).toBe(400);
      expect(refused.json, target).toEqual({
        error: 'VALIDATION_FAILED',
        message: 'Request failed validation',
        issues: [{ path: '', message: 'An HTTP/1.1 request must have a Host header' }],
      });
      expect(refused.headers['x-ratelimit-remaining'], target).toBe('1000');
    }
  });
});

describe('the names the service answers as', () => {
  it('loopback names and addresses, the --host value and the allowed names, with or without a port, in any case', async () => {
    for (const host of ['localhost', `localhost:${port()}`, 'LOCALHOST.', '127.0.0.1', `127.0.0.1:${port()}`, '127.1.2.3', '[::1]', `[::1]:${port()}`, 'reports.lan', `Reports.LAN:${port()}`]) {
      expect((await get('/api/v2/openapi.json', host)).status, host).toBe(200);
    }
  });

  it('a verdict kept for an accepted Host never lets another through: refused each time, also past the bound of kept ones', async () => {
    // More accepted hosts than are kept (64), so the kept ones are dropped and made again.
    for (let last = 1; last <= 70; last++) expect((await get('/api/v2/openapi.json', `127.0.0.${last}`)).status).toBe(200);
    for (const host of ['evil.example', 'evil.example', `evil.example:${port()}`, 'evil.example']) {
      expectRefused(await get('/api/v2/openapi.json', host), host);
    }
  });

  it('listening on every address, any IP address but still no other name', async () => {
    const wildcard = buildApp({ store, readsPerMinute: 1000, writesPerMinute: 1000, hostNames: ['0.0.0.0'] });
    try {
      const status = async (host: string) => (await wildcard.inject({ method: 'GET', url: '/api/v2/openapi.json', headers: { host } })).statusCode;
      expect(await status('192.168.1.20:4747')).toBe(200);
      expect(await status('[fe80::1]:4747')).toBe(200);
      expect(await status('evil.example:4747')).toBe(400);
    } finally {
      await wildcard.close();
    }
  });

  it('serve --allow-host adds a name', async () => {
    const stop = new AbortController();
    const { deps, stdout } = testDeps({ signal: stop.signal });
    const serving = runCli(['serve', '--port', '0', '--db', ':memory:', '--json', '--no-access-log', '--allow-host', 'reports.lan'], deps);
    try {
      await expect.poll(() => stdout(), { timeout: 10_000 }).toContain('\n');
      const served = (JSON.parse(stdout()) as { url: string }).url;
      const ask = (host: string) => rawRequest(served, { method: 'GET', target: '/api/v2/openapi.json', omitHost: true, headers: [['Host', host]] });
      expect((await ask('reports.lan')).status).toBe(200);
      expect((await ask('other.lan')).status).toBe(400);
    } finally {
      stop.abort();
      expect(await serving).toBe(0);
    }
  });
});

describe('item 9: a request without Host', () => {
  let server: RunningServer;
  let accessLog: string[];
  attackedServerForSuite((attacked) => ({ server, accessLog } = attacked));

  it('gets the JSON error shape (400 VALIDATION_FAILED) and an access-log line', async () => {
    const logged = accessLog.length;
    const answer = await rawRequest(server.url, { method: 'GET', target: '/api/v2/openapi.json?no-host=1', omitHost: true });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json).toEqual({
      error: 'VALIDATION_FAILED',
      message: 'Request failed validation',
      issues: [{ path: '', message: 'An HTTP/1.1 request must have a Host header' }],
    });
    await eventually(
      async () => accessLog.length,
      (length) => length > logged,
    );
    expect(accessLog.slice(logged).join('\n')).toMatch(/GET \/api\/v2\/openapi\.json\?no-host=1 400 /);
    // With Host, the same request is answered.
    expect((await rawRequest(server.url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
  });
});
