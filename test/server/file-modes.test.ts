import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/open-store.js';
import { spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

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
