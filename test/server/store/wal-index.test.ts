import { describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/admin/operations.js';
import { walIndexWatch } from '../../../src/server/store/wal-index.js';
import { sqliteDriver } from '../../../src/server/store/driver.js';
import type { Store } from '../../../src/server/store/index.js';
import { storeFileService } from '../../helpers/store.js';

/** The WAL index's header, watched for commits (src/server/store/wal-index.ts). */

let store: Store;
const { otherConnection } = storeFileService((opened) => ({ store } = opened));


describe('walIndexWatch', () => {
  it('shows no change between two looks with no commit between them, and every commit of any connection', () => {
    createAccount(store, {});
    const other = otherConnection();
    // A change of a byte: SQLite writes nothing for an update that changes nothing.
    const rename = (db: Store['db']) => db.prepare("UPDATE accounts SET name = name || '.'").run();
    const watch = walIndexWatch(store.db)!;
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
    rename(other.db);
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
    rename(store.db);
    expect(watch.changed()).toBe(true);
    // A read commits nothing.
    other.accounts.list();
    expect(watch.changed()).toBe(false);
    watch.close();
  });

  it('is null for a database in memory: the pragma is read every time', () => {
    const memory = new (sqliteDriver().Database)(':memory:');
    expect(walIndexWatch(memory)).toBeNull();
    memory.close();
  });
});
