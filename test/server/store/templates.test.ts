import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { TemplateBody } from '../../../src/contract/index.js';
import { type Store } from '../../../src/server/store/index.js';
import { driverFor } from '../../../src/server/store/driver.js';
import { body, created, fixedClock, storeFiles } from '../../helpers/store.js';

/** Templates (src/server/store/templates.ts): order, filters, documents, the template limit under concurrency. */

const files = storeFiles();
const { dbFile, open } = files;
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('templates', () => {
    it('lists newest first with insertion order among equal timestamps, and pages never skip or repeat', () => {
      const clock = fixedClock();
      const store = open(dbFile(), { now: clock.now });
      const { accountId, userId } = store.accounts.create();
      const ids = Array.from({ length: 7 }, (_, i) => created(store.templates.create(accountId, userId, body({ name: `t${i}` }))).id);
      clock.set('2025-03-01T12:00:00.001Z');
      const newest = created(store.templates.create(accountId, userId, body({ name: 'newest' }))).id;

      const expected = [newest, ...ids.reverse()];
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const result = store.templates.list(accountId, { page, limit: 3 });
        expect(result).toMatchObject({ total: 8, page, limit: 3 });
        seen.push(...result.data.map((template) => template.id));
      }
      expect(seen).toEqual(expected);
      expect(store.templates.list(accountId, { page: 4, limit: 3 })).toEqual({ total: 8, page: 4, limit: 3, data: [] });

      // A deletion does not reuse positions: a new row still sorts as the newest.
      store.templates.delete(accountId, newest);
      const afterDelete = created(store.templates.create(accountId, userId, body({ name: 'after' }))).id;
      expect(store.templates.list(accountId, { page: 1, limit: 1 }).data[0]?.id).toBe(afterDelete);
    });

    it('filters by analysis type, report type and report category, combined', () => {
      const store = open();
      const { accountId, userId } = store.accounts.create();
      store.templates.create(accountId, userId, body());
      store.templates.create(accountId, userId, body({ analysisType: 'path', reportType: 'coverage' }));
      store.templates.create(
        accountId,
        userId,
        body({ reportType: 'vigor', reportCategory: 'vegetation_index', indexName: 'NDVI' }),
      );
      const names = (filter: Parameters<Store['templates']['list']>[1]) =>
        store.templates.list(accountId, filter).data.map((template) => `${template.analysisType}/${template.reportType}`);

      expect(names({ page: 1, limit: 20, analysisType: 'counting' })).toEqual(['counting/vigor', 'counting/plant_count']);
      expect(names({ page: 1, limit: 20, reportType: 'coverage' })).toEqual(['path/coverage']);
      expect(names({ page: 1, limit: 20, reportCategory: 'vegetation_index' })).toEqual(['counting/vigor']);
      expect(names({ page: 1, limit: 20, analysisType: 'path', reportCategory: 'vegetation_index' })).toEqual([]);
      expect(store.templates.list(accountId, { page: 1, limit: 20, analysisType: 'replanting' }).total).toBe(0);
    });

    it('stores the document with server fields around the body, in order', () => {
      const clock = fixedClock();
      const store = open(dbFile(), { now: clock.now });
      const { accountId, userId } = store.accounts.create();
      const template = created(store.templates.create(accountId, userId, body()));
      expect(Object.keys(template)).toEqual([
        'id',
        'userId',
        'name',
        'analysisType',
        'reportType',
        'reportTypeId',
        'reportCategory',
        'selectedStatistics',
        'paperSize',
        'mapResolution',
        'margins',
        'createdAt',
        'updatedAt',
      ]);
      expect(template).toMatchObject({ userId, createdAt: '2025-03-01T12:00:00.000Z', updatedAt: '2025-03-01T12:00:00.000Z' });
      expect(store.templates.get(accountId, template.id)).toEqual(template);
    });

    it('replaces the whole document: missing fields are gone, owner and createdAt stay, server fields in the body are ignored', () => {
      const clock = fixedClock();
      const store = open(dbFile(), { now: clock.now });
      const owner = store.accounts.create();
      const sub = store.keys.create(owner.accountId, { subUserName: 'tech' })!;
      const original = created(store.templates.create(owner.accountId, owner.userId, body()));

      clock.set('2025-03-02T08:30:00.000Z');
      const sneaky = {
        name: 'Renamed',
        analysisType: 'path',
        reportType: 'coverage',
        reportTypeId: 'x',
        reportCategory: 'general',
        id: 'other-id',
        userId: sub.userId,
        createdAt: '1999-01-01T00:00:00.000Z',
        updatedAt: '1999-01-01T00:00:00.000Z' } as TemplateBody;
      const replaced = store.templates.replace(owner.accountId, original.id, sneaky);
      expect(replaced).toEqual({
        id: original.id,
        userId: owner.userId,
        name: 'Renamed',
        analysisType: 'path',
        reportType: 'coverage',
        reportTypeId: 'x',
        reportCategory: 'general',
        createdAt: '2025-03-01T12:00:00.000Z',
        updatedAt: '2025-03-02T08:30:00.000Z' });
      expect(store.templates.get(owner.accountId, original.id)).toEqual(replaced);
      // The filter columns follow the document.
      expect(store.templates.list(owner.accountId, { page: 1, limit: 5, analysisType: 'path' }).total).toBe(1);
      expect(store.templates.list(owner.accountId, { page: 1, limit: 5, analysisType: 'counting' }).total).toBe(0);
      expect(store.templates.replace(owner.accountId, 'unknown', body())).toBeNull();
    });

    it("answers another account's template exactly as an unknown one", () => {
      const store = open();
      const mine = store.accounts.create();
      const theirs = store.accounts.create();
      const template = created(store.templates.create(mine.accountId, mine.userId, body()));

      expect(store.templates.get(theirs.accountId, template.id)).toBeNull();
      expect(store.templates.replace(theirs.accountId, template.id, body({ name: 'hijack' }))).toBeNull();
      expect(store.templates.delete(theirs.accountId, template.id)).toBe(false);
      expect(store.templates.list(theirs.accountId, { page: 1, limit: 20 }).total).toBe(0);
      expect(store.templates.get(mine.accountId, template.id)?.name).toBe('Stand count');

      expect(() => store.templates.create(theirs.accountId, mine.userId, body())).toThrow(/not a user of account/);

      expect(store.templates.delete(mine.accountId, template.id)).toBe(true);
      expect(store.templates.delete(mine.accountId, template.id)).toBe(false);
      expect(store.templates.get(mine.accountId, template.id)).toBeNull();
    });

    it('counts the limit over the owner and every sub-user', () => {
      const store = open();
      const owner = store.accounts.create({ templateLimit: 3 });
      const sub = store.keys.create(owner.accountId, { subUserName: 'tech' })!;
      created(store.templates.create(owner.accountId, owner.userId, body()));
      created(store.templates.create(owner.accountId, sub.userId, body()));
      created(store.templates.create(owner.accountId, owner.userId, body()));
      expect(store.templates.create(owner.accountId, sub.userId, body())).toEqual({ limitExceeded: true, limit: 3 });
      expect(store.templates.create(owner.accountId, owner.userId, body())).toEqual({ limitExceeded: true, limit: 3 });
      expect(store.templates.count(owner.accountId)).toBe(3);
      expect(store.accounts.get(owner.accountId)?.templateCount).toBe(3);

      // Another account has its own count.
      const other = store.accounts.create({ templateLimit: 1 });
      created(store.templates.create(other.accountId, other.userId, body()));
      // A deletion frees a place.
      const first = store.templates.list(owner.accountId, { page: 1, limit: 1 }).data[0]!;
      store.templates.delete(owner.accountId, first.id);
      created(store.templates.create(owner.accountId, sub.userId, body()));
    });

    it('enforces the limit across two connections to one file', () => {
      const file = dbFile();
      const one = open(file);
      const owner = one.accounts.create({ templateLimit: 3 });
      const two = open(file);

      created(one.templates.create(owner.accountId, owner.userId, body()));
      created(two.templates.create(owner.accountId, owner.userId, body()));

      // While connection two holds the write lock mid-transaction, connection one cannot
      // read a count that is about to be stale: it waits (and here gives up quickly).
      one.db.pragma('busy_timeout = 50');
      two.db.exec('BEGIN IMMEDIATE');
      created(two.templates.create(owner.accountId, owner.userId, body()));
      expect(() => one.templates.create(owner.accountId, owner.userId, body())).toThrow(/locked|busy/i);
      two.db.exec('COMMIT');

      expect(one.templates.create(owner.accountId, owner.userId, body())).toEqual({ limitExceeded: true, limit: 3 });
      expect(two.templates.create(owner.accountId, owner.userId, body())).toEqual({ limitExceeded: true, limit: 3 });
      expect(one.templates.count(owner.accountId)).toBe(3);
    });

    it('never exceeds the limit when several processes create at once', async () => {
      const bundle = path.join(files.dir(), 'store.cjs');
      await build({
        entryPoints: [path.join(REPO_ROOT, 'src/server/store/index.ts')],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        packages: 'external',
        outfile: bundle,
        logLevel: 'silent' });
      const worker = path.join(files.dir(), 'worker.cjs');
      fs.writeFileSync(
        worker,
        `const { openDatabase, createStore } = require(${JSON.stringify(bundle)});
         const [file, accountId, userId, attempts, startAt] = process.argv.slice(2);
         const store = createStore(openDatabase(file));
         while (Date.now() < Number(startAt)) {}
         let created = 0, refused = 0;
         for (let i = 0; i < Number(attempts); i++) {
           const result = store.templates.create(accountId, userId, ${JSON.stringify(body())});
           if ('limitExceeded' in result) refused++; else created++;
         }
         store.close();
         process.stdout.write(JSON.stringify({ created, refused }));`,
      );

      const file = dbFile();
      const setup = open(file);
      const owner = setup.accounts.create({ templateLimit: 25 });
      const sub = setup.keys.create(owner.accountId, { subUserName: 'tech' })!;
      setup.close();

      const startAt = Date.now() + 1500;
      const runWorker = (userId: string) =>
        new Promise<{ created: number; refused: number }>((resolve, reject) => {
          const child = spawn(process.execPath, [worker, file, owner.accountId, userId, '20', String(startAt)], {
            env: { ...process.env, NODE_PATH: path.join(REPO_ROOT, 'node_modules') } });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('error', reject);
          child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(stderr))));
        });
      const results = await Promise.all([owner.userId, sub.userId, owner.userId, sub.userId].map(runWorker));

      expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(25);
      expect(results.reduce((sum, result) => sum + result.refused, 0)).toBe(55);
      expect(open(file).templates.count(owner.accountId)).toBe(25);
    });
  });
});
