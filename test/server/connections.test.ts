import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { fastifyOptions } from '../../src/server/http/fastify-options.js';
import { limitsOf } from '../../src/server/limits.js';
import { openStore } from '../../src/server/open-store.js';
import type { Store } from '../../src/server/store/index.js';
import { rawRequest } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/server.js';

/**
 * What a connection gets from the service before any route: the cap on open connections,
 * the idle keep-alive timeout, the answers Node's parser refuses (each with the client
 * address's rate-limit headers, as every answer has), and the health check.
 */

let store: Store;
let app: FastifyInstance;
const sockets: Socket[] = [];

async function serve(options: Partial<AppOptions> = {}): Promise<string> {
  store = openStore(join(tempDir(), 'service.db'));
  app = buildApp({ store, readsPerMinute: 50, writesPerMinute: 10, ...options });
  return app.listen({ host: '127.0.0.1', port: 0 });
}
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await app?.close();
  store?.close();
});

/** A keep-alive connection that has had one request answered: open, and counted by the server. */
async function openConnection(url: string): Promise<Socket> {
  const { hostname, port, host } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  });
  return socket;
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('open connections are capped', () => {
  it('past the cap, a new connection is answered 503 SERVICE_UNAVAILABLE with Retry-After and closed; once one closes, it is served', async () => {
    const url = await serve({ maxConnections: 3 });
    const open = [await openConnection(url), await openConnection(url), await openConnection(url)];
    const refused = await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    expect((refused.json as { message: string }).message).toContain('connections');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toBe('50');
    expect(refused.headers.connection).toBe('close');
    open[0]!.destroy();
    await expect.poll(async () => (await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
  });
});

describe('idle keep-alive connections', () => {
  it('are closed by the server after the keep-alive timeout, 30 s by default', async () => {
    expect(fastifyOptions(limitsOf({ readsPerMinute: 1, writesPerMinute: 1 }), {}).keepAliveTimeout).toBe(30_000);
    const url = await serve({ keepAliveTimeoutMs: 200 });
    const socket = await openConnection(url);
    // Nothing more is sent: the server ends the idle connection itself.
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });
});

describe('answers made before routing carry the client address rate-limit headers, spending nothing', () => {
  it('not HTTP: 400; headers too large: 431; headers too slow: 408 REQUEST_TIMEOUT without issues', async () => {
    const url = await serve({ headersTimeoutMs: 300 });
    const notHttp = await rawRequest(url, { method: 'GET', target: '/a b c' });
    expect(notHttp.status).toBe(400);
    const tooLarge = await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json', headers: [['X-Big', 'x'.repeat(20_000)]] });
    expect(tooLarge.status).toBe(431);
    const { hostname, port } = new URL(url);
    const slow = connect(Number(port), hostname);
    sockets.push(slow);
    let received = '';
    slow.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    slow.on('error', () => {});
    slow.write('GET /api/v2/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    await closed(slow);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'REQUEST_TIMEOUT',
      message: 'The request did not arrive in time; send it again',
    });
    for (const head of [notHttp.headers, tooLarge.headers, Object.fromEntries(received.split('\r\n').map((line) => [line.split(':')[0]!.toLowerCase(), line.split(': ')[1]]))]) {
      expect(head['x-ratelimit-limit']).toBe('50');
      // No request of this test spent from the address's bucket.
      expect(head['x-ratelimit-remaining']).toBe('50');
      expect(head['ratelimit-policy']).toBe('"reads";q=50;w=60');
    }
    // A request that does spend shows it, and the next refusal shows that count.
    expect((await rawRequest(url, { method: 'GET', target: '/api/v2/templates' })).headers['x-ratelimit-remaining']).toBe('49');
    expect((await rawRequest(url, { method: 'GET', target: '/a b c' })).headers['x-ratelimit-remaining']).toBe('49');
  });
});

describe('GET /healthz', () => {
  it('answers 200 without a key, a rate limit or a place in the OpenAPI document', async () => {
    const url = await serve();
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
    const url = await serve();
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
