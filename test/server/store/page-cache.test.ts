import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/admin/operations.js';
import { presets } from '../../../src/contract/default-catalogs.js';
import { pageCache } from '../../../src/server/store/page-cache.js';
import { dataVersionOf } from '../../../src/server/store/statements.js';
import { DRIVER_PACKAGES, driverFor } from '../../../src/server/store/driver.js';
import type { IssuedKey, Store } from '../../../src/server/store/index.js';
import { createThrough, listThrough, presetBody, storeFileService } from '../../helpers/store.js';

/**
 * The list's page cache (src/server/store/page-cache.ts), in process over a real database
 * file: every way the templates can change is seen by the next list request.
 */

let store: Store;
let app: FastifyInstance;
const { file, otherConnection } = storeFileService((opened) => ({ store, app } = opened));

const body = presetBody;
const create = (key: IssuedKey, name: string) => createThrough(app, key, name);
const list = (key: IssuedKey, query?: string) => listThrough(app, key, query);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DRIVER_PACKAGE = DRIVER_PACKAGES[driverFor()];

describe('the page cache of GET /api/v2/templates', () => {
  it('a create, a replace and a delete through the API are on the next page', async () => {
    const owner = createAccount(store, {});
    const first = await create(owner, 'first');
    expect((await list(owner)).names).toEqual(['first']);
    expect((await list(owner)).names).toEqual(['first']); // from the cache

    await create(owner, 'second');
    expect(await list(owner)).toMatchObject({ total: 2, names: ['second', 'first'] });

    const replaced = await app.inject({ method: 'PUT', url: `/api/v2/templates/${first}`, headers: { apiKey: owner.apiKey }, payload: body('renamed') });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await list(owner)).names).toEqual(['second', 'renamed']);

    const deleted = await app.inject({ method: 'DELETE', url: `/api/v2/templates/${first}`, headers: { apiKey: owner.apiKey } });
    expect(deleted.statusCode).toBe(204);
    expect(await list(owner)).toMatchObject({ total: 1, names: ['second'] });
  });

  it("another connection's write is on the next page", async () => {
    const owner = createAccount(store, {});
    await create(owner, 'first');
    expect((await list(owner)).names).toEqual(['first']);

    const other = otherConnection();
    other.templates.create(owner.accountId, owner.userId, body('from elsewhere') as never);
    expect((await list(owner)).names).toEqual(['from elsewhere', 'first']);
  });

  // No `reportctl admin` command edits an account's templates (reset and import take the
  // account, or refuse a clash): a plain SQLite client in another process stands in.
  it("another process's write is on the next page", async () => {
    const owner = createAccount(store, {});
    await create(owner, 'first');
    await create(owner, 'second');
    expect((await list(owner)).names).toEqual(['second', 'first']);
    const script = `const db = new (require(${JSON.stringify(DRIVER_PACKAGE)}))(process.argv[1]);
      db.pragma('busy_timeout = 5000');
      db.prepare("DELETE FROM templates WHERE json_extract(document, '$.name') = 'second'").run();`;
    const removed = spawnSync(process.execPath, ['-e', script, file()], { encoding: 'utf8', cwd: ROOT });
    expect(removed.status, removed.stderr).toBe(0);
    expect(await list(owner)).toMatchObject({ total: 1, names: ['first'] });
  });

  it("a write of the service's own connection outside the repository is on the next page", async () => {
    const owner = createAccount(store, {});
    await create(owner, 'first');
    expect((await list(owner)).names).toEqual(['first']);
    store.db.prepare("UPDATE templates SET document = json_set(document, '$.name', 'edited')").run();
    expect((await list(owner)).names).toEqual(['edited']);
  });

  it('two accounts never see each other’s pages, for the very same query', async () => {
    const alice = createAccount(store, {});
    const bob = createAccount(store, {});
    await create(alice, 'alice 1');
    await create(bob, 'bob 1');
    for (let i = 0; i < 2; i++) {
      expect((await list(alice)).names).toEqual(['alice 1']);
      expect((await list(bob)).names).toEqual(['bob 1']);
    }
    await create(alice, 'alice 2');
    expect((await list(alice)).names).toEqual(['alice 2', 'alice 1']);
    expect((await list(bob)).names).toEqual(['bob 1']);
  });

  it('other queries are other pages', async () => {
    const owner = createAccount(store, {});
    for (const name of ['a', 'b', 'c']) await create(owner, name);
    expect((await list(owner, 'limit=2')).names).toEqual(['c', 'b']);
    expect((await list(owner, 'limit=2&page=2')).names).toEqual(['a']);
    expect((await list(owner, 'limit=1')).names).toEqual(['c']);
    expect((await list(owner, `limit=2&analysisType=${presets[0]!.seedPayload.analysisType}`)).names).toEqual(['c', 'b']);
  });

  it('rate-limit headers are counted per request, cached page or not', async () => {
    const owner = createAccount(store, {});
    await create(owner, 'first');
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push(Number((await list(owner)).headers['x-ratelimit-remaining']));
    expect(remaining[1]).toBe(remaining[0]! - 1);
    expect(remaining[2]).toBe(remaining[0]! - 2);
  });
});

describe('pageCache', () => {
  /** A read that says how often it ran. */
  function counted(text: string) {
    const read = { runs: 0, page: async () => (read.runs++, [Buffer.from(text)]) };
    return read;
  }

  it("a write to one account's rows keeps the other accounts' pages", async () => {
    const pages = pageCache(store.db, dataVersionOf(store.db));
    const alice = createAccount(store, {});
    const bob = createAccount(store, {});
    const [forAlice, forBob] = [counted('alice'), counted('bob')];
    // Creating the accounts was a write outside `write`: the first lookup starts afresh.
    await pages.page(alice.accountId, 'q', forAlice.page);
    await pages.page(bob.accountId, 'q', forBob.page);
    pages.write(alice.accountId, () => store.db.prepare('UPDATE accounts SET name = name WHERE id = ?').run(alice.accountId));
    expect(Buffer.concat(await pages.page(alice.accountId, 'q', forAlice.page)).toString()).toBe('alice');
    expect(Buffer.concat(await pages.page(bob.accountId, 'q', forBob.page)).toString()).toBe('bob');
    expect([forAlice.runs, forBob.runs]).toEqual([2, 1]);
  });

  it('a page read while a write happened is answered but not kept', async () => {
    const pages = pageCache(store.db, dataVersionOf(store.db));
    const owner = createAccount(store, {});
    const read = counted('page');
    await pages.page(owner.accountId, 'q', async () => {
      const parts = await read.page();
      pages.write(owner.accountId, () => undefined);
      return parts;
    });
    await pages.page(owner.accountId, 'q', read.page);
    await pages.page(owner.accountId, 'q', read.page);
    expect(read.runs).toBe(2);
  });

  it('pushes out the least recently used page, a hit counting as a use', async () => {
    const pages = pageCache(store.db, dataVersionOf(store.db), { maxPages: 2, maxBytes: 1000, maxPageBytes: 100 });
    const read = counted('x');
    for (const query of ['a', 'b', 'a', 'c']) await pages.page('account', query, read.page);
    expect(read.runs).toBe(3); // 'a' was a hit
    await pages.page('account', 'a', read.page);
    expect(read.runs).toBe(3); // 'b' went, not 'a'
    await pages.page('account', 'b', read.page);
    expect(read.runs).toBe(4);
  });

  it('keeps at most its limits, and never a page larger than its limit per page', async () => {
    const pages = pageCache(store.db, dataVersionOf(store.db), { maxPages: 2, maxBytes: 1000, maxPageBytes: 100 });
    const small = counted('x'.repeat(10));
    const large = counted('y'.repeat(101));
    for (const query of ['a', 'b', 'c', 'a']) await pages.page('account', query, small.page);
    expect(small.runs).toBe(4); // 'a' was pushed out by 'c'
    await pages.page('account', 'c', small.page);
    expect(small.runs).toBe(4);
    await pages.page('account', 'big', large.page);
    await pages.page('account', 'big', large.page);
    expect(large.runs).toBe(2);
  });
});
