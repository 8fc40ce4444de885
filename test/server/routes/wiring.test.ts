import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../../../src/admin/operations.js';
import { presets } from '../../../src/contract/default-catalogs.js';
import { pageQuerySchema, templatesQuerySchema } from '../../../src/contract/index.js';
import { buildApp } from '../../../src/server/app.js';
import { openStore } from '../../../src/server/open-store.js';
import type { IssuedKey, Store } from '../../../src/server/store/index.js';
import { tempDir } from '../../helpers/server.js';

/**
 * Each endpoint parses a distinct query string once (src/server/routes/wiring.ts): the
 * answers stay those of a fresh parse, and a query that fails is refused every time.
 */

let dir: string;
let store: Store;
let app: FastifyInstance;
let owner: IssuedKey;

beforeEach(async () => {
  dir = tempDir();
  store = openStore(join(dir, 'service.db'));
  app = buildApp({ store, readsPerMinute: 100_000, writesPerMinute: 100_000 });
  owner = createAccount(store, {});
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    const created = await app.inject({ method: 'POST', url: '/api/v2/templates', headers: { apiKey: owner.apiKey }, payload: { ...presets[0]!.seedPayload, name } });
    expect(created.statusCode, created.body).toBe(201);
  }
});
afterEach(async () => {
  vi.restoreAllMocks();
  await app.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { apiKey: owner.apiKey } });
const names = async (url: string) => {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Array<{ name: string }> }).data.map((template) => template.name);
};

describe('parsed queries', () => {
  it('the same query string is parsed once per endpoint; each string gets its own answer', async () => {
    const parses = vi.spyOn(templatesQuerySchema, 'safeParse');
    expect(await names('/api/v2/templates?limit=2')).toEqual(['e', 'd']);
    expect(await names('/api/v2/templates?limit=2')).toEqual(['e', 'd']);
    expect(await names('/api/v2/templates?limit=2&page=2')).toEqual(['c', 'b']);
    expect(await names('/api/v2/templates?page=2&limit=2')).toEqual(['c', 'b']);
    expect(await names('/api/v2/templates')).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await names('/api/v2/templates?limit=2')).toEqual(['e', 'd']);
    expect(parses).toHaveBeenCalledTimes(4);

    // Another endpoint with the same query string parses it with its own schema.
    const pageParses = vi.spyOn(pageQuerySchema, 'safeParse');
    const presetsPage = await get('/api/v2/templates/presets?limit=2');
    expect(presetsPage.statusCode, presetsPage.body).toBe(200);
    expect((presetsPage.json() as { limit: number }).limit).toBe(2);
    expect(pageParses).toHaveBeenCalledTimes(1);
  });

  it('a query that fails is refused each time, with the same 400', async () => {
    const parses = vi.spyOn(templatesQuerySchema, 'safeParse');
    const first = await get('/api/v2/templates?limit=abc');
    const second = await get('/api/v2/templates?limit=abc');
    expect(first.statusCode).toBe(400);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual(first.json());
    expect((first.json() as { error: string }).error).toBe('VALIDATION_FAILED');
    expect(parses).toHaveBeenCalledTimes(2);
    expect(await names('/api/v2/templates?limit=1')).toEqual(['e']);
  });

  it('past the bound, older strings are parsed again and still answer right', async () => {
    for (let at = 0; at < 300; at++) expect(await names(`/api/v2/templates?limit=1&page=1&n=${at}`)).toEqual(['e']);
    const parses = vi.spyOn(templatesQuerySchema, 'safeParse');
    expect(await names('/api/v2/templates?limit=1&page=1&n=0')).toEqual(['e']);
    expect(await names('/api/v2/templates?limit=1&page=1&n=299')).toEqual(['e']);
    // n=0 was dropped to keep the bound; n=299 is still kept.
    expect(parses).toHaveBeenCalledTimes(1);
  });
});
