import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Catalogs, Preset, QueueRun, Template, TemplateBody } from '../../src/contract/index.js';
import type { Fixtures } from '../../src/contract/fixtures.js';
import {
  APPLICATION_ID,
  FixtureError,
  StoreOpenError,
  createStore,
  migrate,
  migrations,
  openDatabase,
  seedCatalogsIfEmpty,
  type Store,
  type StoreOptions,
} from '../../src/server/store/index.js';
import { driverFor, sqliteDriver } from '../../src/server/store/driver.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

let dir: string;
const opened: BetterSqlite3.Database[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reportctl-store-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const dbFile = (name = 'store.db') => path.join(dir, name);

function open(file = dbFile(), options: StoreOptions = {}): Store {
  const db = openDatabase(file);
  opened.push(db);
  return createStore(db, options);
}

function raw(file: string): BetterSqlite3.Database {
  const db = new (sqliteDriver().Database)(file);
  opened.push(db);
  return db;
}

/** A clock that stays on one millisecond unless moved: every row gets the same timestamp. */
function fixedClock(iso = '2025-03-01T12:00:00.000Z') {
  let current = new Date(iso);
  return {
    now: () => new Date(current),
    set: (next: string) => {
      current = new Date(next);
    },
  };
}

// Small inline catalogs: the store stores documents, it does not interpret them.
const catalogs: Catalogs = {
  reportTypes: {
    counting: [
      {
        id: '00000000-0000-4000-8000-000000000001',
        key: 'plant_count',
        label: { en: 'Plant count', es: 'Conteo' },
        statistics: ['totalPlants'],
        reportCategory: 'general',
      },
    ],
    replanting: [],
    path: [],
  },
  statistics: { counting: ['totalPlants'], replanting: ['gaps'], path: ['coverage'] },
  vegetationIndexDefaults: {
    indexNames: ['NDVI', 'Custom_Index'],
    colorScales: {
      NDVI: {
        stops: [
          { value: 0, color: '#d73027' },
          { value: 1, color: '#1a9850' },
        ],
      },
    },
    accentColors: { NDVI: '#1a9850' },
    layouts: { portrait: { elements: [] }, landscape: { elements: [] } },
    defaults: { paperSize: 'letter', mapResolution: 150, margins: { top: 2, right: 2, bottom: 2, left: 2 }, saviL: 0.5 },
    customFormula: {
      allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
      allowedScalars: ['eps', 'L'],
      allowedFunctions: ['sqrt', 'abs'],
      rules: { divisionRequiresEps: true },
    },
  },
};

const presets: Preset[] = ['b', 'a', 'c'].map((letter) => ({
  id: `preset-${letter}`,
  name: `Preset ${letter}`,
  description: 'A starter template',
  analysisType: 'counting',
  reportCategory: 'general',
  seedPayload: { name: `Preset ${letter}` },
}));

function body(overrides: Partial<TemplateBody> = {}): TemplateBody {
  return {
    name: 'Stand count',
    analysisType: 'counting',
    reportType: 'plant_count',
    reportTypeId: '00000000-0000-4000-8000-000000000001',
    reportCategory: 'general',
    selectedStatistics: ['totalPlants'],
    paperSize: 'letter',
    mapResolution: 150,
    margins: { top: 2, right: 2, bottom: 2, left: 2 },
    ...overrides,
  };
}

function created(result: Template | { limitExceeded: true; limit: number }): Template {
  if ('limitExceeded' in result) throw new Error('unexpected limitExceeded');
  return result;
}

function asRun(result: QueueRun | { error: 'finished' } | null): QueueRun {
  if (result === null || 'error' in result) throw new Error(`expected a run, got ${JSON.stringify(result)}`);
  return result;
}

const bytesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0));

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {

  describe('opening and migrating', () => {
    it('creates, marks and migrates a new file (parent directories too), and re-opens it unchanged', () => {
      const file = path.join(dir, 'nested', 'deeper', 'reportctl.db');
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
  });

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
        updatedAt: '1999-01-01T00:00:00.000Z',
      } as TemplateBody;
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
        updatedAt: '2025-03-02T08:30:00.000Z',
      });
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
      const bundle = path.join(dir, 'store.cjs');
      await build({
        entryPoints: [path.join(repoRoot, 'src/server/store/index.ts')],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        packages: 'external',
        outfile: bundle,
        logLevel: 'silent',
      });
      const worker = path.join(dir, 'worker.cjs');
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
            env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
          });
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

  describe('catalogs and presets', () => {
    it('seeds only what is absent, so an administrator’s edits survive', () => {
      const store = open();
      expect(seedCatalogsIfEmpty(store.db, catalogs, presets)).toEqual({
        catalogs: ['report-types', 'statistics', 'vegetation-index-defaults'],
        presets: 3,
      });
      expect(store.catalogs.get()).toEqual(catalogs);
      store.catalogs.import({ statistics: { counting: ['edited'], replanting: [], path: [] } });
      const more = [...presets, { ...presets[0]!, id: 'preset-new' }];
      expect(seedCatalogsIfEmpty(store.db, catalogs, more)).toEqual({ catalogs: [], presets: 1 });
      expect(store.catalogs.statistics().counting).toEqual(['edited']);
      expect(store.catalogs.reportTypes()).toEqual(catalogs.reportTypes);
    });

    it('lists presets in seed order and finds them by id', () => {
      const store = open();
      seedCatalogsIfEmpty(store.db, catalogs, presets);
      const first = store.presets.list(1, 2);
      expect(first.total).toBe(3);
      expect(first.data.map((preset) => preset.id)).toEqual(['preset-b', 'preset-a']);
      expect(store.presets.list(2, 2).data.map((preset) => preset.id)).toEqual(['preset-c']);
      expect(store.presets.get('preset-a')).toEqual(presets[1]);
      expect(store.presets.get('nope')).toBeNull();
    });

    it('says so when the catalogs were never seeded', () => {
      expect(() => open().catalogs.get()).toThrow(/not seeded/);
    });

    it('parses once, hands out frozen documents, and sees a change from another connection at the next call', () => {
      const file = dbFile();
      const server = open(file);
      seedCatalogsIfEmpty(server.db, catalogs, presets);
      const first = server.catalogs.get();
      expect(server.catalogs.get()).toBe(first); // cached: no re-parse
      expect(Object.isFrozen(first.statistics.counting)).toBe(true);

      const admin = open(file);
      admin.catalogs.import({
        statistics: { counting: ['fromAdmin'], replanting: [], path: [] },
        vegetationIndexDefaults: { ...catalogs.vegetationIndexDefaults, indexNames: ['NDVI'] },
      });
      const next = server.catalogs.get();
      expect(next).not.toBe(first);
      expect(next.statistics.counting).toEqual(['fromAdmin']);
      expect(server.catalogs.vegetationIndexDefaults().indexNames).toEqual(['NDVI']);
      expect(next.reportTypes).toEqual(catalogs.reportTypes);

      // Its own import is seen at once too.
      server.catalogs.import({ statistics: catalogs.statistics });
      expect(server.catalogs.statistics()).toEqual(catalogs.statistics);
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

  describe('queues, runs and analyses', () => {
    function withQueue(options: StoreOptions = {}) {
      const store = open(dbFile(), options);
      const { accountId } = store.accounts.create();
      const queue = store.queues.create(accountId, {
        name: 'Emergence',
        steps: [
          { lotId: 'lot-1', analysisType: 'counting' },
          { lotId: 'lot-2', analysisType: 'counting' },
          { lotId: 'lot-3', analysisType: 'replanting' },
        ],
      });
      return { store, accountId, queue };
    }

    it('saves queues with steps numbered from 1, per account', () => {
      const { store, accountId, queue } = withQueue();
      expect(queue.steps.map((step) => step.order)).toEqual([1, 2, 3]);
      expect(store.queues.get(accountId, queue.id)).toEqual(queue);
      expect(store.queues.list(accountId, 1, 20)).toEqual({ total: 1, page: 1, limit: 20, data: [queue] });
      const other = store.accounts.create();
      expect(store.queues.get(other.accountId, queue.id)).toBeNull();
      expect(store.queues.getById(queue.id)).toEqual({ ...queue, accountId });
      expect(() => store.queues.create('nope', { name: 'x', steps: [] })).toThrow(/no account/);
    });

    it('runs a queue to completion one deterministic step at a time', () => {
      const clock = fixedClock('2025-04-01T00:00:00.000Z');
      const { store, accountId, queue } = withQueue({ now: clock.now });
      const enqueued = store.queueRuns.enqueue(queue.id, { estimatedHa: 42.5 })!;
      expect(enqueued).toEqual({
        id: enqueued.id,
        name: 'Emergence',
        queueId: queue.id,
        status: 'pending',
        estimatedHa: 42.5,
        // Absent, not null, until each step finishes.
        steps: queue.steps.map((step) => ({ ...step, status: 'pending' })),
        createdAt: '2025-04-01T00:00:00.000Z',
        startedAt: null,
        finishedAt: null,
      });
      expect(store.queueRuns.activeRunIds()).toEqual([enqueued.id]);

      clock.set('2025-04-01T00:00:01.000Z');
      expect(asRun(store.queueRuns.advance(enqueued.id)).status).toBe('claimed');
      clock.set('2025-04-01T00:00:02.000Z');
      const running = asRun(store.queueRuns.advance(enqueued.id));
      expect(running).toMatchObject({ status: 'running', startedAt: '2025-04-01T00:00:02.000Z', finishedAt: null });
      expect(running.steps.map((step) => step.status)).toEqual(['running', 'pending', 'pending']);

      clock.set('2025-04-01T00:00:03.000Z');
      const afterFirst = asRun(store.queueRuns.advance(enqueued.id));
      expect(afterFirst.steps.map((step) => step.status)).toEqual(['completed', 'running', 'pending']);
      expect(afterFirst.steps[0]).toMatchObject({ finishedAt: '2025-04-01T00:00:03.000Z' });
      asRun(store.queueRuns.advance(enqueued.id));
      clock.set('2025-04-01T00:00:05.000Z');
      const done = asRun(store.queueRuns.advance(enqueued.id));
      expect(done).toMatchObject({ status: 'completed', finishedAt: '2025-04-01T00:00:05.000Z' });
      expect(done.steps.every((step) => step.status === 'completed' && step.analysisId && step.finishedAt)).toBe(true);
      expect(store.queueRuns.get(accountId, done.id)).toEqual(done);
      expect(store.queueRuns.activeRunIds()).toEqual([]);

      // Every finished step's analysis is listed, linked to the run.
      const analyses = store.analyses.list(accountId, { page: 1, limit: 20 }).data;
      expect(analyses.map((analysis) => analysis.id).sort()).toEqual(done.steps.map((step) => step.analysisId).sort());
      for (const step of done.steps) {
        expect(analyses.find((analysis) => analysis.id === step.analysisId)).toMatchObject({
          lotId: step.lotId,
          analysisType: step.analysisType,
          status: 'completed',
          queueRunId: done.id,
          finishedAt: step.finishedAt,
        });
      }

      expect(store.queueRuns.advance(done.id)).toEqual({ error: 'finished' });
      expect(store.queueRuns.cancel(done.id)).toEqual({ error: 'finished' });
      expect(store.queueRuns.advance('nope')).toBeNull();
      expect(store.queueRuns.cancel('nope')).toBeNull();
      expect(store.queueRuns.enqueue('nope')).toBeNull();
    });

    it('fails a run at the chosen step and skips the rest', () => {
      const { store, accountId, queue } = withQueue();
      const run = store.queueRuns.enqueue(queue.id, { name: 'Round 1', failAtStep: 2 })!;
      let current = run;
      for (let i = 0; i < 4; i++) current = asRun(store.queueRuns.advance(run.id));
      expect(current.status).toBe('failed');
      expect(current.name).toBe('Round 1');
      expect(current.finishedAt).not.toBeNull();
      expect(current.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped']);
      expect(current.steps[2]).not.toHaveProperty('analysisId');
      expect(current.steps[2]).not.toHaveProperty('finishedAt');
      expect(store.analyses.list(accountId, { page: 1, limit: 20, status: 'failed' }).data.map((a) => a.id)).toEqual([
        current.steps[1]!.analysisId,
      ]);
      expect(store.queueRuns.advance(run.id)).toEqual({ error: 'finished' });
    });

    it('cancels pending and running runs; unfinished steps are skipped', () => {
      const { store, accountId, queue } = withQueue();
      const pending = store.queueRuns.enqueue(queue.id)!;
      const cancelledPending = asRun(store.queueRuns.cancel(pending.id));
      expect(cancelledPending.status).toBe('cancelled');
      expect(cancelledPending.finishedAt).not.toBeNull();
      expect(cancelledPending.steps.every((step) => step.status === 'skipped')).toBe(true);

      const running = store.queueRuns.enqueue(queue.id)!;
      for (let i = 0; i < 3; i++) store.queueRuns.advance(running.id);
      const cancelled = asRun(store.queueRuns.cancel(running.id));
      expect(cancelled.steps.map((step) => step.status)).toEqual(['completed', 'skipped', 'skipped']);
      expect(store.queueRuns.cancel(running.id)).toEqual({ error: 'finished' });

      const list = store.queueRuns.list(accountId, { page: 1, limit: 20, status: 'cancelled' });
      expect(list.total).toBe(2);
      expect(list.data.map((run) => run.id)).toEqual([running.id, pending.id]);
      expect(store.queueRuns.list(accountId, { page: 1, limit: 20, status: 'running' }).total).toBe(0);
      expect(store.queueRuns.get(store.accounts.create().accountId, running.id)).toBeNull();
      expect(store.queueRuns.getById(running.id)).toEqual(cancelled);
    });

    it('filters analyses with AND; the legacy list applies only the first filter, in storage order', () => {
      const clock = fixedClock();
      const store = open(dbFile(), { now: clock.now });
      const { accountId } = store.accounts.create();
      const rows = [
        { lotId: 'lot-1', analysisType: 'counting', status: 'completed' },
        { lotId: 'lot-1', analysisType: 'path', status: 'failed' },
        { lotId: 'lot-2', analysisType: 'counting', status: 'failed' },
        { lotId: 'lot-1', analysisType: 'counting', status: 'failed' },
      ].map((row) => store.analyses.insert(accountId, row).id);
      const other = store.accounts.create();
      store.analyses.insert(other.accountId, { lotId: 'lot-1', analysisType: 'counting', status: 'failed' });

      const ids = (filter: { lotId?: string; analysisType?: string; status?: string }) =>
        store.analyses.list(accountId, { page: 1, limit: 20, ...filter }).data.map((analysis) => analysis.id);
      expect(ids({})).toEqual([...rows].reverse());
      expect(ids({ lotId: 'lot-1', status: 'failed' })).toEqual([rows[3], rows[1]]);
      expect(ids({ lotId: 'lot-1', analysisType: 'counting', status: 'failed' })).toEqual([rows[3]]);

      const legacy = store.analyses.legacyList(accountId, { lotId: 'lot-1', status: 'failed' });
      expect(legacy.data.map((analysis) => analysis.id)).toEqual([rows[0], rows[1], rows[3]]);
      expect(legacy.total).toBe(3);
      expect(store.analyses.legacyList(accountId, { analysisType: 'counting', status: 'completed' }).total).toBe(3);
      expect(store.analyses.legacyList(accountId, {}).total).toBe(4);
    });
  });

  describe('fixtures', () => {
    it('applies queues, runs and analyses', () => {
      const store = open();
      const { accountId } = store.accounts.create();
      const saved = store.queues.create(accountId, { name: 'Saved', steps: [{ lotId: 'lot-9', analysisType: 'path' }] });
      const applied = store.fixtures.apply(accountId, {
        queues: [{ name: 'Q', steps: [{ lotId: 'a', analysisType: 'counting' }, { lotId: 'b', analysisType: 'counting' }] }],
        runs: [
          { queue: 0, advance: 99 },
          { queue: 0, failAtStep: 1, advance: 3 },
          { queue: 0, advance: 3, cancel: true },
          { queue: saved.id, name: 'Claimed', advance: 1 },
        ],
        analyses: [{ lotId: 'x', analysisType: 'replanting', status: 'completed' }],
      });
      expect(applied.runs.map((run) => run.status)).toEqual(['completed', 'failed', 'cancelled', 'claimed']);
      expect(applied.runs[2]!.steps.map((step) => step.status)).toEqual(['completed', 'skipped']);
      expect(store.queues.list(accountId, 1, 20).total).toBe(2);
      expect(store.analyses.list(accountId, { page: 1, limit: 20 }).total).toBe(2 + 1 + 1 + 1);
    });

    it('writes nothing when a fixture refers to something missing', () => {
      const store = open();
      const { accountId } = store.accounts.create();
      const bad: Fixtures = {
        queues: [{ name: 'Q', steps: [{ lotId: 'a', analysisType: 'counting' }] }],
        runs: [{ queue: 0, advance: 5 }, { queue: 3 }],
        analyses: [{ lotId: 'x', analysisType: 'counting', status: 'completed' }],
      };
      expect(() => store.fixtures.apply(accountId, bad)).toThrow(FixtureError);
      expect(() => store.fixtures.apply(accountId, bad)).toThrow(/runs\.1\.queue/);
      expect(() => store.fixtures.apply(accountId, { runs: [{ queue: 'no-such-queue' }] })).toThrow(/no queue no-such-queue/);
      expect(() => store.fixtures.apply(accountId, { runs: [{ queue: 0, advance: 9, cancel: true }], queues: bad.queues })).toThrow(
        /cannot be cancelled/,
      );
      expect(() => store.fixtures.apply('nope', { queues: bad.queues })).toThrow(FixtureError);

      expect(store.queues.list(accountId, 1, 20).total).toBe(0);
      expect(store.queueRuns.list(accountId, { page: 1, limit: 20 }).total).toBe(0);
      expect(store.analyses.list(accountId, { page: 1, limit: 20 }).total).toBe(0);
      expect(store.db.prepare('SELECT count(*) FROM queues').pluck().get()).toBe(0);
    });
  });
});
