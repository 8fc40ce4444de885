import { Client } from 'undici';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presets } from '../../../src/contract/default-catalogs.js';
import { buildApp } from '../../../src/server/app.js';
import { openStore } from '../../../src/server/open-store.js';
import type { IssuedKey, Store } from '../../../src/server/store/index.js';
import { tempDir } from '../../helpers/server.js';

/**
 * Step 3 of the gate (src/server/admission/caller.ts): who is calling, from the request's one
 * visit to the store. Keys on one keep-alive connection (the last key each connection sent is
 * remembered with its hash): whatever a connection sent before, each request is served as its
 * own key's account.
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

/** The store's repositories and methods the service reached during `run`, in order. */
async function storeVisits(run: (app: FastifyInstance) => Promise<unknown>): Promise<string[]> {
  const visits: string[] = [];
  const watched = new Proxy(store, {
    get: (target, name, receiver) => {
      if (typeof name === 'string') visits.push(name);
      return Reflect.get(target, name, receiver);
    },
  });
  const watchedApp = buildApp({ store: watched, readsPerMinute: 1000, writesPerMinute: 1000 });
  try {
    visits.length = 0;
    await run(watchedApp);
    return visits;
  } finally {
    await watchedApp.close();
  }
}

describe('the store, as a request starts', () => {
  it('is visited once by the gate: the caller and the live faults come with the reading of its version', async () => {
    const own = store.accounts.create();
    const created = await app.inject({ method: 'POST', url: '/api/v2/templates', headers: { apiKey: own.apiKey }, payload: { ...presets[0]!.seedPayload, name: 'visited' } });
    const id = (created.json() as { id: string }).id;
    const get = (watchedApp: FastifyInstance) => watchedApp.inject({ method: 'GET', url: `/api/v2/templates/${id}`, headers: { apiKey: own.apiKey } });
    // Then the handler's own read.
    expect(await storeVisits(get)).toEqual(['atRequestStart', 'templates']);
    // Outside the API too, where an injected fault may apply: no key is looked up.
    expect(await storeVisits((watchedApp) => watchedApp.inject({ method: 'GET', url: '/healthz' }))).toEqual(['atRequestStart']);
  });
});

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
