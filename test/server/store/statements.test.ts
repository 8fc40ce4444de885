import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/admin/operations.js';
import { dataVersionOf } from '../../../src/server/store/statements.js';
import type { IssuedKey, Store } from '../../../src/server/store/index.js';
import { listThrough, storeFileService } from '../../helpers/store.js';

/** PRAGMA data_version as the store's caches read it (dataVersionOf, src/server/store/statements.ts). */

let store: Store;
let app: FastifyInstance;
const { otherConnection } = storeFileService((opened) => ({ store, app } = opened));

const list = (key: IssuedKey, query?: string) => listThrough(app, key, query);

describe('dataVersionOf', () => {
  const commitElsewhere = () => otherConnection().db.prepare('UPDATE accounts SET name = name').run();

  it('reads anew at every call until a request starts', () => {
    const version = dataVersionOf(store.db);
    const before = version();
    commitElsewhere();
    expect(version()).not.toBe(before);
  });

  it('from a request start, holds that reading until the next request starts: one read per request', () => {
    createAccount(store, {});
    const version = dataVersionOf(store.db);
    version.atRequestStart();
    const atStart = version();
    commitElsewhere();
    expect(version()).toBe(atStart);
    version.atRequestStart();
    expect(version()).not.toBe(atStart);
  });

  it('requests from sockets share one reading per turn of the event loop; the next turn reads anew', async () => {
    createAccount(store, {});
    const version = dataVersionOf(store.db);
    version.atRequestStart(true);
    const atStart = version();
    commitElsewhere();
    // Answered in the same turn: the request was waiting when the turn began, before the commit.
    version.atRequestStart(true);
    expect(version()).toBe(atStart);
    // A request made in process reads anew even within the turn.
    version.atRequestStart(false);
    const inProcess = version();
    expect(inProcess).not.toBe(atStart);
    await new Promise((resolve) => setImmediate(resolve));
    commitElsewhere();
    version.atRequestStart(true);
    expect(version()).not.toBe(inProcess);
    version.close();
  });

  it("this connection's own write leaves it as it was, as the pragma does, while the WAL index shows a change", () => {
    createAccount(store, {});
    const version = dataVersionOf(store.db);
    const before = version();
    store.db.prepare("UPDATE accounts SET name = name || '.'").run();
    expect(version()).toBe(before);
    commitElsewhere();
    expect(version()).not.toBe(before);
    version.close();
  });

  it('the service reads it as each request starts, before the key is looked up', async () => {
    const owner = createAccount(store, {});
    // The key, cached by its first request, is revoked by another connection between requests.
    expect((await list(owner)).total).toBe(0);
    otherConnection().keys.revoke(owner.apiKey);
    const response = await app.inject({ method: 'GET', url: '/api/v2/templates', headers: { apiKey: owner.apiKey } });
    expect(response.statusCode).toBe(401);
  });
});
