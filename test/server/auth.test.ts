import { Client } from 'undici';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presets } from '../../src/contract/default-catalogs.js';
import { buildApp } from '../../src/server/app.js';
import { openStore } from '../../src/server/open-store.js';
import type { IssuedKey, Store } from '../../src/server/store/index.js';
import { tempDir } from '../helpers/server.js';

/**
 * Keys on one keep-alive connection (src/server/auth.ts remembers the last key each connection
 * sent): whatever a connection sent before, each request is answered as its own key's account.
 */

let store: Store;
let app: FastifyInstance;
let client: Client;
let connections = 0;
let first: IssuedKey;
let second: IssuedKey;

beforeAll(async () => {
  store = openStore(join(tempDir(), 'service.db'));
  app = buildApp({ store, readsPerMinute: 1000, writesPerMinute: 1000 });
  app.server.on('connection', () => connections++);
  client = new Client(await app.listen({ host: '127.0.0.1', port: 0 }), { pipelining: 1 });
  first = store.accounts.create();
  second = store.accounts.create();
});
afterAll(async () => {
  await client?.close();
  await app?.close();
  store?.close();
});

async function request(method: 'GET' | 'POST', key: string, body?: unknown) {
  const answer = await client.request({
    method,
    path: '/api/v2/templates',
    headers: { apiKey: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: answer.statusCode, json: (await answer.body.json()) as { total?: number; error?: string } };
}

describe('one connection, several keys', () => {
  it('answers each request as its own key, a revoked one refused at once', async () => {
    expect((await request('POST', first.apiKey, { ...presets[0]!.seedPayload, name: 'only in the first account' })).status).toBe(201);
    const totals = [];
    for (const key of [first, second, first, second, second, first]) totals.push((await request('GET', key.apiKey)).json.total);
    expect(totals).toEqual([1, 0, 1, 0, 0, 1]);

    // A key one character off the last one sent is not that key.
    const wrong = first.apiKey.slice(0, -1) + (first.apiKey.endsWith('A') ? 'B' : 'A');
    expect(await request('GET', wrong)).toEqual({ status: 401, json: expect.objectContaining({ error: 'API_KEY_INVALID' }) });
    expect((await request('GET', first.apiKey)).json.total).toBe(1);

    expect(store.keys.revoke(first.apiKey)).toBe(true);
    expect(await request('GET', first.apiKey)).toEqual({ status: 401, json: expect.objectContaining({ error: 'API_KEY_INVALID' }) });
    expect((await request('GET', second.apiKey)).json.total).toBe(0);
    expect(connections).toBe(1);
  });
});
