import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { closed, healthRequest, keepAliveConnection, listeningApp } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-http.js';

/**
 * The connection slots (src/server/http/connection-cap.ts): at most so many connections open
 * at once, and a connection that never presented a valid key gives its slot up to a newcomer.
 */

describe('open connections are capped', () => {
  it('when every slot is held by a connection that presented a valid key, a new one is refused 503 with Retry-After and closed; once one closes, it is served', async () => {
    const { store, url } = await listeningApp({ maxConnections: 3 });
    const { apiKey } = store.accounts.create();
    const open = [await keepAliveConnection(url, apiKey), await keepAliveConnection(url, apiKey), await keepAliveConnection(url, apiKey)];
    const refused = await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    expect((refused.json as { message: string }).message).toContain('connections');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toBe('50');
    expect(refused.headers.connection).toBe('close');
    expect(open.some((socket) => socket.destroyed)).toBe(false);
    open[0]!.destroy();
    await expect.poll(async () => (await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
  });

  it('a connection without a valid key gives its slot to a newcomer, the oldest first; those with a key keep theirs', async () => {
    const { store, url } = await listeningApp({ maxConnections: 4 });
    const { apiKey } = store.accounts.create();
    const keyed = await keepAliveConnection(url, apiKey);
    const oldest = await keepAliveConnection(url);
    const keyedToo = await keepAliveConnection(url, apiKey);
    const younger = await keepAliveConnection(url);
    // A newcomer with a wrong key: it is served (401), and is keyless itself.
    const wrongKey = await keepAliveConnection(url, `${apiKey}x`);
    await closed(oldest);
    expect(younger.destroyed).toBe(false);
    expect((await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
    await closed(younger);
    expect([keyed, keyedToo, wrongKey].map((socket) => socket.destroyed)).toEqual([false, false, false]);
  });

  it('a new connection keeps its slot until its first request, for a second at most', async () => {
    const { url } = await listeningApp({ maxConnections: 2 });
    const { hostname, port } = new URL(url);
    const silent = connect(Number(port), hostname);
    onTestFinished(() => void silent.destroy());
    silent.on('error', () => {});
    await new Promise((resolve) => silent.once('connect', resolve));
    const served = await keepAliveConnection(url);
    // The newcomer takes the slot of the younger connection, which has had its request, not of the older one that has not sent one yet.
    expect((await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
    await expect.poll(() => served.destroyed || silent.destroyed).toBe(true);
    expect([served.destroyed, silent.destroyed]).toEqual([true, false]);
  });
});

/**
 * Keyless keep-alive connections that fill every slot and send `GET /healthz` often enough
 * never to go idle (the health check spends no rate limit), reopening any connection that
 * closes: one local client trying to lock every other out.
 */
function holdEverySlot(url: string, connections: number, everyMs: number): { stop(): void; opened(): number } {
  const { hostname, port, host } = new URL(url);
  const held = new Set<Socket>();
  let opened = 0;
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const socket = connect(Number(port), hostname);
    opened += 1;
    held.add(socket);
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.once('connect', () => socket.write(healthRequest(host)));
    socket.once('close', () => {
      held.delete(socket);
      setTimeout(open, 20);
    });
  };
  for (let i = 0; i < connections; i++) open();
  const polling = setInterval(() => {
    for (const socket of held) if (socket.writable) socket.write(healthRequest(host));
  }, everyMs);
  const stop = () => {
    stopped = true;
    clearInterval(polling);
    for (const socket of held) socket.destroy();
  };
  return { stop, opened: () => opened };
}

describe('one client without a key cannot hold every connection slot', () => {
  it('while keyless connections fill the cap and poll /healthz, a client with a key is served on new connections, again and again', async () => {
    const { store, url } = await listeningApp({ maxConnections: 8, keepAliveTimeoutMs: 1_000 });
    const { apiKey } = store.accounts.create();
    const attack = holdEverySlot(url, 8, 100);
    try {
      // Every slot taken, and the attack reopens what closes.
      await expect.poll(() => attack.opened()).toBeGreaterThanOrEqual(8);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 5; i++) {
        const served = await rawRequest(url, { method: 'GET', target: '/api/v2/templates', headers: [['apiKey', apiKey]] });
        expect(served.status).toBe(200);
      }
      // A keyed keep-alive connection opened meanwhile keeps its slot however often the attack
      // reconnects, past the second any new connection is spared before its first request.
      const keyed = await keepAliveConnection(url, apiKey);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const before = attack.opened();
      // Each reconnection takes the slot of another keyless connection, which reconnects in turn.
      await expect.poll(() => keyed.destroyed || attack.opened() > before + 16, { timeout: 10_000 }).toBe(true);
      expect(keyed.destroyed).toBe(false);
    } finally {
      attack.stop();
    }
  });
});
