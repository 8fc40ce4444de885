import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../src/server/store/index.js';
import { driverFor } from '../../../src/server/store/driver.js';
import { body, created, storeFiles } from '../../helpers/store.js';

/** The schema's migrations (src/server/store/migrations.ts) on files made by earlier versions. */

const files = storeFiles();
const { dbFile, open, raw } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('opening and migrating', () => {
    it('upgrades an older file and keeps its data', () => {
      const file = dbFile();
      const store = open(file);
      const { accountId } = store.accounts.create({ name: 'Kept' });
      store.close();

      const later = [
        ...migrations,
        { version: migrations.length + 1, description: 'test', sql: 'ALTER TABLE accounts ADD COLUMN region TEXT' },
      ];
      const db = raw(file);
      expect(migrate(db, later)).toEqual({ from: migrations.length, to: migrations.length + 1 });
      expect(db.prepare('SELECT name, region FROM accounts WHERE id = ?').get(accountId)).toEqual({ name: 'Kept', region: null });
      expect(migrate(db, later)).toEqual({ from: migrations.length + 1, to: migrations.length + 1 });
    });

    it("migration 2 counts each account's templates in an old file, and triggers keep the count whoever writes", () => {
      // A file as version 1 left it, with templates in two accounts.
      // (Rows written by hand: today's store does not run on a version-1 file.)
      const file = dbFile();
      const v1 = raw(file);
      migrate(v1, migrations.slice(0, 1));
      const at = '2025-03-01T12:00:00.000Z';
      const insertAccount = v1.prepare("INSERT INTO accounts VALUES (?, 'old', 10, ?)");
      const insertUser = v1.prepare("INSERT INTO users VALUES (?, ?, 'owner', 'owner', ?)");
      const insertTemplate = v1.prepare(
        'INSERT INTO templates (id, account_id, user_id, analysis_type, report_type, report_category, document, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const a = { accountId: 'account-a', userId: 'user-a' };
      const b = { accountId: 'account-b', userId: 'user-b' };
      for (const { accountId, userId } of [a, b]) {
        insertAccount.run(accountId, at);
        insertUser.run(userId, accountId, at);
      }
      const template = body();
      const oldRow = (id: string, owner: { accountId: string; userId: string }) =>
        insertTemplate.run(id, owner.accountId, owner.userId, template.analysisType, template.reportType, template.reportCategory, JSON.stringify({ id, ...template }), at, at);
      for (let i = 0; i < 3; i++) oldRow(`a${i}`, a);
      oldRow('b0', b);
      v1.close();

      const store = open(file);
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
      const counts = () => store.accounts.list().map((account) => [account.id, account.templateCount] as const);
      expect(new Map(counts())).toEqual(new Map([[a.accountId, 3], [b.accountId, 1]]));
      expect(store.templates.list(a.accountId, { page: 1, limit: 2 }).total).toBe(3);

      // Another connection (an admin command) deletes and inserts behind the store's back.
      const other = raw(file);
      other.prepare('DELETE FROM templates WHERE account_id = ?').run(b.accountId);
      expect(new Map(counts()).get(b.accountId)).toBe(0);
      created(store.templates.create(b.accountId, b.userId, body()));
      const extra = created(store.templates.create(a.accountId, a.userId, body({ name: 'a3' })));
      expect(store.templates.delete(a.accountId, extra.id)).toBe(true);
      // The kept count agrees with counting the rows, filtered lists still count theirs.
      for (const [id, count] of counts()) {
        expect(count).toBe(other.prepare('SELECT count(*) FROM templates WHERE account_id = ?').pluck().get(id));
      }
      expect(store.templates.list(a.accountId, { page: 1, limit: 1, analysisType: body().analysisType }).total).toBe(3);
    });
  });
});
