import type Database from 'better-sqlite3';
import { StoreOpenError } from './errors.js';

/** Marks a file as ours in the SQLite header (offset 68): ASCII "rctl". */
export const APPLICATION_ID = 0x7263746c;

export interface Migration {
  /** 1, 2, 3 ...: the `user_version` the file has once this migration ran. */
  version: number;
  description: string;
  sql: string;
}

/*
 * STRICT tables make SQLite check column types. `seq INTEGER PRIMARY KEY AUTOINCREMENT` is
 * the insertion order tie-break of every list; AUTOINCREMENT so a deleted row's seq is never
 * reused (a reused seq would sort a new row among old ones). Each list index ends with
 * (created_at DESC, seq DESC), the one ordering every list uses.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'accounts, keys, templates, catalogs, presets, queues, runs, analyses',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        template_limit INTEGER NOT NULL CHECK (template_limit >= 0),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('owner', 'sub-user')),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX users_by_account ON users(account_id);
      CREATE UNIQUE INDEX users_one_owner ON users(account_id) WHERE role = 'owner';

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_keys_by_user ON api_keys(user_id);

      CREATE TABLE templates (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id),
        analysis_type TEXT NOT NULL,
        report_type TEXT NOT NULL,
        report_category TEXT NOT NULL,
        document TEXT NOT NULL CHECK (json_valid(document)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX templates_by_account ON templates(account_id, created_at DESC, seq DESC);
      CREATE INDEX templates_by_analysis_type ON templates(account_id, analysis_type, created_at DESC, seq DESC);
      CREATE INDEX templates_by_report_type ON templates(account_id, report_type, created_at DESC, seq DESC);
      CREATE INDEX templates_by_report_category ON templates(account_id, report_category, created_at DESC, seq DESC);

      CREATE TABLE catalogs (
        name TEXT PRIMARY KEY CHECK (name IN ('report-types', 'statistics', 'vegetation-index-defaults')),
        document TEXT NOT NULL CHECK (json_valid(document)),
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE presets (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        document TEXT NOT NULL CHECK (json_valid(document))
      ) STRICT;

      CREATE TABLE queues (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        steps TEXT NOT NULL CHECK (json_valid(steps)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX queues_by_account ON queues(account_id, created_at DESC, seq DESC);

      CREATE TABLE queue_runs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        queue_id TEXT NOT NULL REFERENCES queues(id),
        name TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('pending', 'claimed', 'running', 'completed', 'failed', 'cancelled')),
        estimated_ha REAL NOT NULL,
        steps TEXT NOT NULL CHECK (json_valid(steps)),
        fail_at_step INTEGER,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX queue_runs_by_account ON queue_runs(account_id, created_at DESC, seq DESC);
      CREATE INDEX queue_runs_by_status ON queue_runs(account_id, status, created_at DESC, seq DESC);
      -- The simulator's question, "which runs still move?", without a scan of finished runs.
      CREATE INDEX queue_runs_active ON queue_runs(seq) WHERE status IN ('pending', 'claimed', 'running');

      CREATE TABLE analyses (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        lot_id TEXT NOT NULL,
        analysis_type TEXT NOT NULL,
        status TEXT NOT NULL,
        queue_run_id TEXT REFERENCES queue_runs(id),
        created_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX analyses_by_account ON analyses(account_id, created_at DESC, seq DESC);
      CREATE INDEX analyses_by_lot ON analyses(account_id, lot_id, created_at DESC, seq DESC);
      CREATE INDEX analyses_by_analysis_type ON analyses(account_id, analysis_type, created_at DESC, seq DESC);
      CREATE INDEX analyses_by_status ON analyses(account_id, status, created_at DESC, seq DESC);
      CREATE INDEX analyses_by_queue_run ON analyses(queue_run_id);
    `,
  },
  {
    version: 2,
    description: "each account's template count, kept by triggers",
    // count(*) over an account's index entries grows with the account (docs/performance.md) on
    // every list and every create. Triggers keep the count right whatever process writes.
    sql: `
      ALTER TABLE accounts ADD COLUMN template_count INTEGER NOT NULL DEFAULT 0 CHECK (template_count >= 0);
      UPDATE accounts SET template_count = (SELECT count(*) FROM templates t WHERE t.account_id = accounts.id);
      CREATE TRIGGER templates_count_insert AFTER INSERT ON templates BEGIN
        UPDATE accounts SET template_count = template_count + 1 WHERE id = NEW.account_id;
      END;
      CREATE TRIGGER templates_count_delete AFTER DELETE ON templates BEGIN
        UPDATE accounts SET template_count = template_count - 1 WHERE id = OLD.account_id;
      END;
    `,
  },
  {
    version: 3,
    description: 'injected faults (admin faults, serve --fault)',
    // No reference to accounts: a fault outlives a reset (it belongs to the fixture, not to
    // an account's data) and then matches nobody. remaining is NULL for a fault without end.
    sql: `
      CREATE TABLE faults (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('status', 'latency', 'reset-connection')),
        status INTEGER CHECK (status IN (429, 500, 502, 503, 504)),
        latency_ms INTEGER CHECK (latency_ms >= 0),
        rate REAL NOT NULL CHECK (rate >= 0 AND rate <= 1),
        remaining INTEGER CHECK (remaining >= 0),
        account_id TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 4,
    description: 'the formula functions each database has been given',
    // One row per formula function ever added to this database's catalog: a function the
    // release's registry has and this table lacks is added once (seed.ts), so a new function
    // reaches an old database while an administrator's removal of one is not undone. sqrt and
    // abs are in every catalog seeded before this table.
    sql: `
      CREATE TABLE formula_functions (
        name TEXT PRIMARY KEY,
        added_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO formula_functions (name, added_at)
        VALUES ('sqrt', strftime('%Y-%m-%dT%H:%M:%fZ')), ('abs', strftime('%Y-%m-%dT%H:%M:%fZ'));
    `,
  },
];

export function newerVersionError(file: string, version: number, latest = migrations.length): StoreOpenError {
  return new StoreOpenError(
    file,
    `it was created by a newer reportctl (schema version ${version}; this one knows up to ${latest}); upgrade reportctl`,
  );
}

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the file up to the newest version, one transaction per migration. Each transaction
 * is IMMEDIATE and re-reads the version inside it, so two processes opening a new file at
 * the same moment apply every migration exactly once.
 */
export function migrate(db: Database.Database, list: readonly Migration[] = migrations): { from: number; to: number } {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`migration ${index + 1} is numbered ${migration.version}`);
  });
  const from = userVersion(db);
  if (from > list.length) throw newerVersionError(db.name, from, list.length);
  const apply = db.transaction((migration: Migration) => {
    const current = userVersion(db);
    if (current >= migration.version) return;
    // The header mark goes in with the first schema, so a half-made file is never "ours".
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  });
  for (const migration of list) {
    if (migration.version > from) apply.immediate(migration);
  }
  return { from, to: userVersion(db) };
}
