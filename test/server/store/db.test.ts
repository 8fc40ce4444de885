import fs, { chmodSync, existsSync, statSync } from 'node:fs';
import path, { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/server/open-store.js';
import { spawnCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/server.js';
import { APPLICATION_ID, StoreOpenError, migrations, openDatabase } from '../../../src/server/store/index.js';
import { driverFor } from '../../../src/server/store/driver.js';
import { bytesOf, storeFiles } from '../../helpers/store.js';

/** Opening a database file (src/server/store/db.ts): what it claims, creates and refuses. */

const files = storeFiles();
const { dbFile, open, raw } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('opening and migrating', () => {
    it('creates, marks and migrates a new file (parent directories too), and re-opens it unchanged', () => {
      const file = path.join(files.dir(), 'nested', 'deeper', 'reportctl.db');
      const store = open(file);
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      const { accountId } = store.accounts.create({ name: 'Farm' });
      store.close();

      // The header carries our mark once the WAL is checkpointed on close.
      expect(bytesOf(file).readInt32BE(68)).toBe(APPLICATION_ID);

      const again = open(file);
      expect(again.db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(again.accounts.get(accountId)?.name).toBe('Farm');
    });

    it('works in memory', () => {
      const store = open(':memory:');
      const { accountId } = store.accounts.create();
      expect(store.accounts.get(accountId)?.templateLimit).toBe(100);
    });

    it('claims an empty file and an SQLite file with nothing in it', () => {
      fs.writeFileSync(dbFile('empty.db'), '');
      expect(open(dbFile('empty.db')).db.pragma('user_version', { simple: true })).toBe(migrations.length);
      raw(dbFile('blank.db')).pragma('user_version = 0'); // a valid header, no tables
      expect(open(dbFile('blank.db')).db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    });

    it('refuses a file written by a newer reportctl, and leaves it alone', () => {
      const file = dbFile();
      open(file).close();
      const db = raw(file);
      db.pragma(`user_version = ${migrations.length + 1}`);
      db.close();
      const before = bytesOf(file);

      expect(() => openDatabase(file)).toThrow(StoreOpenError);
      expect(() => openDatabase(file)).toThrow(/newer reportctl/);
      expect(bytesOf(file).equals(before)).toBe(true);
    });

    it("refuses another application's SQLite file without changing a byte", () => {
      const file = dbFile('notes.db');
      const foreign = raw(file);
      foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
      foreign.close();
      const before = bytesOf(file);

      expect(() => openDatabase(file)).toThrow(StoreOpenError);
      expect(() => openDatabase(file)).toThrow(file);
      expect(bytesOf(file).equals(before)).toBe(true);
      expect(fs.existsSync(`${file}-wal`)).toBe(false);

      // Refused from the header alone when it carries another application id.
      const marked = raw(dbFile('marked.db'));
      marked.pragma('application_id = 42');
      marked.exec('CREATE TABLE t (x)');
      marked.close();
      const markedBefore = bytesOf(dbFile('marked.db'));
      expect(() => openDatabase(dbFile('marked.db'))).toThrow(/another application/);
      expect(bytesOf(dbFile('marked.db')).equals(markedBefore)).toBe(true);
    });

    it('refuses a file that is not a database, or a corrupt one, without changing a byte', () => {
      const garbage = dbFile('garbage.db');
      fs.writeFileSync(garbage, Buffer.from('this is a text file, not a database\n'.repeat(200)));
      const garbageBefore = bytesOf(garbage);
      expect(() => openDatabase(garbage)).toThrow(StoreOpenError);
      expect(() => openDatabase(garbage)).toThrow(/not an SQLite database/);
      expect(bytesOf(garbage).equals(garbageBefore)).toBe(true);

      // A valid header over a damaged body.
      const corrupt = dbFile('corrupt.db');
      const good = raw(corrupt);
      good.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('x')");
      good.close();
      const bytes = bytesOf(corrupt);
      bytes.fill(0xee, 100);
      fs.writeFileSync(corrupt, bytes);
      expect(() => openDatabase(corrupt)).toThrow(StoreOpenError);
      expect(bytesOf(corrupt).equals(bytes)).toBe(true);
    });
  });
});

/**
 * Issue 17, item 4: the database holds key hashes and every account's templates, so other
 * local users must not be able to read it, whatever the umask of whoever started the service.
 */

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('database file modes', () => {
  let umask: number;
  beforeEach(() => {
    // The most permissive umask: only the service's own modes stand between the file and other users.
    umask = process.umask(0o000);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('creates missing folders 0700 and the database, -wal and -shm 0600 under umask 000', () => {
    const root = tempDir();
    const db = join(root, 'data', 'reportctl', 'service.db');
    const store = openStore(db);
    try {
      store.accounts.create();
      expect(modeOf(join(root, 'data'))).toBe(0o700);
      expect(modeOf(join(root, 'data', 'reportctl'))).toBe(0o700);
      // The folder that already existed is not the service's to change.
      expect(modeOf(root)).toBe(0o700);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file).toString(8), file).toBe('600');
      }
    } finally {
      store.close();
    }
  });

  it('warns, without changing it, when an existing database can be read by group or others', () => {
    const db = join(tempDir(), 'service.db');
    openStore(db).close();
    chmodSync(db, 0o644);
    const warnings: string[] = [];
    openStore(db, { onWarning: (message) => warnings.push(message) }).close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(db);
    expect(warnings[0]).toContain('0644');
    expect(warnings[0]).toContain('chmod 600');
    expect(modeOf(db)).toBe(0o644);
    chmodSync(db, 0o600);
    const none: string[] = [];
    openStore(db, { onWarning: (message) => none.push(message) }).close();
    expect(none).toEqual([]);
  });

  it("makes -wal and -shm 0600 on opening, whatever the existing database's mode", () => {
    const db = join(tempDir(), 'service.db');
    openStore(db).close();
    for (const mode of [0o644, 0o666, 0o600]) {
      chmodSync(db, mode);
      const store = openStore(db, { onWarning: () => undefined });
      try {
        store.accounts.create();
        for (const file of [`${db}-wal`, `${db}-shm`]) {
          expect(existsSync(file), file).toBe(true);
          expect(modeOf(file).toString(8), `${file} beside a ${mode.toString(8)} database`).toBe('600');
        }
        // The database itself is the user's: left as it was.
        expect(modeOf(db)).toBe(mode);
      } finally {
        store.close();
      }
    }
  });

  it('serve says so on stderr', async () => {
    const db = join(tempDir(), 'service.db');
    openStore(db).close();
    chmodSync(db, 0o640);
    const serve = await spawnCli(['serve', '--port', '0', '--db', db, '--json', '--no-access-log']);
    try {
      await expect.poll(() => serve.stderr(), { timeout: 5000 }).toMatch(/warning: .*service\.db can be read by other users \(mode 0640\)/);
      expect(serve.firstLine).toContain('"url"');
    } finally {
      await serve.stop('SIGTERM');
    }
  });
});
