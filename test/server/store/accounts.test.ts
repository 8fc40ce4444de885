import { describe, expect, it } from 'vitest';
import { driverFor } from '../../../src/server/store/driver.js';
import { bytesOf, storeFiles } from '../../helpers/store.js';

/** Accounts and keys (src/server/store/accounts.ts). */

const files = storeFiles();
const { dbFile, open } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('accounts and keys', () => {
    it('stores only a hash of each key: the key is nowhere in the database or its WAL', () => {
      const file = dbFile();
      const store = open(file);
      const owner = store.accounts.create({ name: 'Farm' });
      const sub = store.keys.create(owner.accountId, { subUserName: 'tech' });
      expect(owner.apiKey).toMatch(/^rctl_[A-Za-z0-9_-]{43}$/);
      expect(sub?.apiKey).toMatch(/^rctl_[A-Za-z0-9_-]{43}$/);

      // Before and after the checkpoint on close.
      for (const when of ['open', 'closed']) {
        if (when === 'closed') store.close();
        const everything = Buffer.concat([bytesOf(file), bytesOf(`${file}-wal`)]).toString('latin1');
        expect(everything.length).toBeGreaterThan(0);
        expect(everything).not.toContain(owner.apiKey);
        expect(everything).not.toContain(sub!.apiKey);
        expect(everything).not.toContain(owner.apiKey.slice(12)); // the secret part
      }
    });

    it('authenticates owner and sub-user keys to the same account, and refuses revoked and unknown keys', () => {
      const store = open();
      const owner = store.accounts.create();
      const sub = store.keys.create(owner.accountId, { subUserName: 'tech' })!;
      const second = store.keys.create(owner.accountId)!;

      expect(store.keys.authenticate(owner.apiKey)).toEqual({ accountId: owner.accountId, userId: owner.userId });
      expect(store.keys.authenticate(sub.apiKey)).toEqual({ accountId: owner.accountId, userId: sub.userId });
      expect(sub.userId).not.toBe(owner.userId);
      expect(second.userId).toBe(owner.userId);
      expect(store.keys.authenticate('rctl_' + 'x'.repeat(43))).toBeNull();

      expect(store.keys.revoke(owner.apiKey)).toBe(true);
      expect(store.keys.authenticate(owner.apiKey)).toBeNull();
      expect(store.keys.revoke(owner.apiKey)).toBe(false);
      expect(store.keys.authenticate(second.apiKey)).not.toBeNull();

      expect(store.keys.revoke(sub.keyId)).toBe(true);
      expect(store.keys.authenticate(sub.apiKey)).toBeNull();
      expect(store.keys.revoke('no-such-key')).toBe(false);

      const listed = store.keys.list(owner.accountId);
      expect(listed).toHaveLength(3);
      expect(listed.filter((key) => key.revokedAt !== null)).toHaveLength(2);
      expect(listed.every((key) => key.prefix.length === 12 && key.prefix.startsWith('rctl_'))).toBe(true);
    });

    it('creates keys only for existing accounts, and manages the template limit', () => {
      const store = open();
      expect(store.keys.create('nope')).toBeNull();
      const { accountId } = store.accounts.create({ name: 'A', templateLimit: 3 });
      expect(store.accounts.get(accountId)).toMatchObject({ name: 'A', templateLimit: 3, templateCount: 0 });
      expect(store.accounts.setTemplateLimit(accountId, 7)?.templateLimit).toBe(7);
      expect(store.accounts.setTemplateLimit('nope', 7)).toBeNull();
      expect(store.accounts.get('nope')).toBeNull();
      expect(store.accounts.list().map((account) => account.id)).toEqual([accountId]);
    });

    it('sees a key revoked through another connection at the next call', () => {
      const file = dbFile();
      const server = open(file);
      const { apiKey } = server.accounts.create();
      expect(server.keys.authenticate(apiKey)).not.toBeNull();
      expect(open(file).keys.revoke(apiKey)).toBe(true);
      expect(server.keys.authenticate(apiKey)).toBeNull();
    });
  });
});
