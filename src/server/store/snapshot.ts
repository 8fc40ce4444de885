import type { Catalogs, Preset, Template } from '../../contract/index.js';
import type { Snapshot } from '../../contract/snapshot.js';
import { catalogNames } from './catalogs.js';
import { columns as analysisColumns, toAnalysis, type AnalysisRow } from './analyses.js';
import type { StoreContext } from './repository-context.js';
import { columns as runColumns, toRun, type RunRow } from './queue-runs.js';
import { toQueue, type QueueRow } from './queues.js';

/** A snapshot's tables; format, version and exportedAt are the caller's. */
export type SnapshotTables = Omit<Snapshot, 'format' | 'version' | 'exportedAt'>;

/** Children first, so no delete leaves a row pointing at a deleted one. */
const ACCOUNT_TABLES = ['analyses', 'queue_runs', 'queues', 'templates', 'api_keys', 'users', 'accounts'] as const;

/**
 * The whole state in and out, and the reset. Rows are read and written in seq (insertion)
 * order, so the lists' tie-break survives a round trip; stored JSON is copied as it is, so
 * every body comes back byte for byte. Faults are not part of it: they belong to the fixture
 * that runs the service, not to the service's data.
 */
export function snapshotsRepository(context: StoreContext) {
  const { db } = context;
  const readTables = db.transaction((): SnapshotTables => {
    const catalogRows = db.prepare<[], { name: string; document: string; updated_at: string }>('SELECT name, document, updated_at FROM catalogs').all();
    const catalogByName = new Map(catalogRows.map((row) => [row.name, row]));
    const catalogs = {} as Record<keyof Catalogs, unknown>;
    for (const [key, name] of Object.entries(catalogNames) as [keyof Catalogs, string][]) {
      const row = catalogByName.get(name);
      if (!row) throw new Error(`The ${name} catalog is missing: the database was not seeded`);
      catalogs[key] = JSON.parse(row.document);
    }
    const updatedAt = catalogRows.map((row) => row.updated_at).sort().at(-1) ?? new Date(0).toISOString();
    const rows = <Row>(sql: string) => db.prepare<[], Row>(sql).all();
    return {
      catalogs: { ...(catalogs as Catalogs), updatedAt },
      presets: rows<{ document: string }>('SELECT document FROM presets ORDER BY seq').map((row) => JSON.parse(row.document) as Preset),
      accounts: rows<SnapshotTables['accounts'][number]>(
        'SELECT id, name, template_limit AS templateLimit, created_at AS createdAt FROM accounts ORDER BY rowid',
      ),
      users: rows<SnapshotTables['users'][number]>(
        'SELECT id, account_id AS accountId, name, role, created_at AS createdAt FROM users ORDER BY rowid',
      ),
      apiKeys: rows<SnapshotTables['apiKeys'][number]>(
        'SELECT id, user_id AS userId, key_hash AS keyHash, prefix, created_at AS createdAt, revoked_at AS revokedAt FROM api_keys ORDER BY rowid',
      ),
      templates: rows<{ account_id: string; document: string }>('SELECT account_id, document FROM templates ORDER BY seq').map((row) => ({
        accountId: row.account_id,
        template: JSON.parse(row.document) as Template,
      })),
      queues: rows<QueueRow>('SELECT id, account_id, name, steps, created_at FROM queues ORDER BY seq').map((row) => ({
        accountId: row.account_id,
        queue: toQueue(row),
      })),
      queueRuns: rows<RunRow>(`SELECT ${runColumns} FROM queue_runs ORDER BY seq`).map((row) => ({
        accountId: row.account_id,
        queueRun: toRun(row),
        failAtStep: row.fail_at_step,
      })),
      analyses: rows<AnalysisRow & { account_id: string }>(`SELECT account_id, ${analysisColumns} FROM analyses ORDER BY seq`).map((row) => ({
        accountId: row.account_id,
        analysis: toAnalysis(row),
      })),
    };
  });

  const deleteAccounts = () => {
    for (const table of ACCOUNT_TABLES) db.prepare(`DELETE FROM ${table}`).run();
  };

  /** Catalogs replaced by name, presets in full. */
  const writeCatalogsAndPresets = (tables: SnapshotTables) => {
    db.prepare('DELETE FROM presets').run();
    const upsertCatalog = db.prepare<[string, string, string]>(
      `INSERT INTO catalogs (name, document, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
    );
    for (const [key, name] of Object.entries(catalogNames) as [keyof Catalogs, string][]) {
      upsertCatalog.run(name, JSON.stringify(tables.catalogs[key]), tables.catalogs.updatedAt);
    }
    const insertPreset = db.prepare<[string, string]>('INSERT INTO presets (id, document) VALUES (?, ?)');
    for (const preset of tables.presets) insertPreset.run(preset.id, JSON.stringify(preset));
  };

  /** Accounts, their users and their keys. */
  const writeAccounts = (tables: SnapshotTables) => {
    const insertAccount = db.prepare<[string, string, number, string]>(
      'INSERT INTO accounts (id, name, template_limit, created_at) VALUES (?, ?, ?, ?)',
    );
    for (const account of tables.accounts) insertAccount.run(account.id, account.name, account.templateLimit, account.createdAt);
    const insertUser = db.prepare<[string, string, string, string, string]>(
      'INSERT INTO users (id, account_id, name, role, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const user of tables.users) insertUser.run(user.id, user.accountId, user.name, user.role, user.createdAt);
    const insertKey = db.prepare<[string, string, string, string, string, string | null]>(
      'INSERT INTO api_keys (id, user_id, key_hash, prefix, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const key of tables.apiKeys) insertKey.run(key.id, key.userId, key.keyHash, key.prefix, key.createdAt, key.revokedAt);
  };

  const writeTemplates = (tables: SnapshotTables) => {
    const insertTemplate = db.prepare<[string, string, string, string, string, string, string, string, string]>(
      `INSERT INTO templates (id, account_id, user_id, analysis_type, report_type, report_category, document, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { accountId, template } of tables.templates) {
      insertTemplate.run(
        template.id,
        accountId,
        template.userId,
        template.analysisType,
        template.reportType,
        template.reportCategory,
        JSON.stringify(template),
        template.createdAt,
        template.updatedAt,
      );
    }
  };

  /** Queues, their runs, and the analyses the runs made. */
  const writeQueues = (tables: SnapshotTables) => {
    const insertQueue = db.prepare<[string, string, string, string, string]>(
      'INSERT INTO queues (id, account_id, name, steps, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const { accountId, queue } of tables.queues) insertQueue.run(queue.id, accountId, queue.name, JSON.stringify(queue.steps), queue.createdAt);
    const insertRun = db.prepare<[string, string, string, string, string, number, string, number | null, string, string | null, string | null]>(
      `INSERT INTO queue_runs (id, account_id, queue_id, name, status, estimated_ha, steps, fail_at_step, created_at, started_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { accountId, queueRun: run, failAtStep } of tables.queueRuns) {
      insertRun.run(run.id, accountId, run.queueId, run.name, run.status, run.estimatedHa, JSON.stringify(run.steps), failAtStep, run.createdAt, run.startedAt, run.finishedAt);
    }
    const insertAnalysis = db.prepare<[string, string, string, string, string, string | null, string, string | null]>(
      `INSERT INTO analyses (id, account_id, lot_id, analysis_type, status, queue_run_id, created_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { accountId, analysis } of tables.analyses) {
      insertAnalysis.run(analysis.id, accountId, analysis.lotId, analysis.analysisType, analysis.status, analysis.queueRunId, analysis.createdAt, analysis.finishedAt);
    }
  };

  const refuseCrossedRows = () => {
    // An account's rows must all be its own: a key, template or run pointing into another
    // account would let one account's key reach another's data.
    const crossed = db
      .prepare(
        `SELECT 'template ' || t.id FROM templates t JOIN users u ON u.id = t.user_id WHERE u.account_id <> t.account_id
         UNION ALL SELECT 'queue run ' || r.id FROM queue_runs r JOIN queues q ON q.id = r.queue_id WHERE q.account_id <> r.account_id
         UNION ALL SELECT 'analysis ' || a.id FROM analyses a JOIN queue_runs r ON r.id = a.queue_run_id WHERE r.account_id <> a.account_id
         LIMIT 1`,
      )
      .pluck()
      .get() as string | undefined;
    if (crossed !== undefined) throw new SnapshotConflict(`${crossed} belongs to another account than the row it refers to`);
  };

  const writeTables = db.transaction((tables: SnapshotTables) => {
    deleteAccounts();
    writeCatalogsAndPresets(tables);
    writeAccounts(tables);
    writeTemplates(tables);
    writeQueues(tables);
    refuseCrossedRows();
  });

  return {
    /** Every table, read in one transaction (one consistent state even while others write). */
    read(): SnapshotTables {
      return readTables.deferred();
    },
    /** Whether any account exists (catalogs and presets are always there). */
    hasAccounts(): boolean {
      return db.prepare('SELECT 1 FROM accounts LIMIT 1').get() !== undefined;
    },
    /**
     * Replaces accounts, their data, catalogs and presets with the snapshot's, all or
     * nothing. Throws SnapshotConflict (or SQLite's constraint error) for rows that do not
     * fit together; nothing is changed then.
     */
    write(tables: SnapshotTables): void {
      writeTables.immediate(tables);
    },
    /** Removes every account and all its data; catalogs, presets and faults stay. */
    reset(): { accounts: number } {
      return db.transaction(() => {
        const accounts = db.prepare<[], number>('SELECT count(*) FROM accounts').pluck().get() ?? 0;
        deleteAccounts();
        return { accounts };
      }).immediate();
    },
  };
}

/** A snapshot whose rows contradict each other. */
export class SnapshotConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotConflict';
  }
}
