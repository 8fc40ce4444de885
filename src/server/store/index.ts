import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { accountsRepository, keysRepository } from './accounts.js';
import { analysesRepository } from './analyses.js';
import { catalogsRepository, presetsRepository } from './catalogs.js';
import { faultsRepository } from './faults.js';
import { snapshotReader, type StoreContext } from './repository-context.js';
import type { Fixtures } from '../../contract/fixtures.js';
import { applyFixtures } from './fixtures.js';
import { queueRunsRepository } from './queue-runs.js';
import { snapshotsRepository } from './snapshot.js';
import { queuesRepository } from './queues.js';
import { steppedReader } from './readers.js';
import { dataVersionOf } from './statements.js';
import { templatesRepository } from './templates.js';

export interface StoreOptions {
  /** The clock every timestamp comes from (tests inject a fixed one). */
  now?: () => Date;
  /** The id of every new row. */
  randomId?: () => string;
}

/**
 * The repositories over one open, migrated connection (see openDatabase). Every write is
 * one transaction; every miss is null.
 */
export function createStore(db: Database.Database, options: StoreOptions = {}) {
  const snapshot = snapshotReader(db);
  const context: StoreContext = {
    db,
    now: options.now ?? (() => new Date()),
    randomId: options.randomId ?? randomUUID,
    snapshot,
    readers: steppedReader(db, snapshot),
    dataVersion: dataVersionOf(db),
  };
  const store = {
    db,
    accounts: accountsRepository(context),
    keys: keysRepository(context),
    templates: templatesRepository(context),
    catalogs: catalogsRepository(context),
    presets: presetsRepository(context),
    queues: queuesRepository(context),
    queueRuns: queueRunsRepository(context),
    analyses: analysesRepository(context),
    faults: faultsRepository(context),
    snapshots: snapshotsRepository(context),
    /**
     * The service calls this as each request starts: the caches it checks while answering read
     * the database's version once (see DataVersion) instead of each on its own.
     */
    atRequestStart(fromSocket?: boolean): void {
      context.dataVersion.atRequestStart(fromSocket);
    },
    fixtures: {
      apply: (accountId: string, fixtures: Fixtures) => applyFixtures(store, accountId, fixtures),
    },
    close(): void {
      context.readers.close();
      context.dataVersion.close();
      db.close();
    },
  };
  return store;
}

export type Store = ReturnType<typeof createStore>;

export { openDatabase, type Db, type OpenDatabaseOptions } from './db.js';
export { SERVING_BUSY_TIMEOUT_MS, isBusyError, retryWhileBusy, setBusyTimeout, whileServing } from './busy.js';
export { StoreOpenError, FixtureError } from './errors.js';
export { migrate, migrations, APPLICATION_ID, type Migration } from './migrations.js';
export { addNewFormulaFunctions, seedCatalogsIfEmpty } from './seed.js';
export { applyFixtures, type AppliedFixtures } from './fixtures.js';
export { DEFAULT_TEMPLATE_LIMIT, hashApiKey, type Account, type ApiKeyInfo, type Caller, type IssuedKey } from './accounts.js';
export type { TemplateFilter, TemplateLimitExceeded } from './templates.js';
export type { AnalysisFilter, NewAnalysis } from './analyses.js';
export type { NewQueue } from './queues.js';
export type { EnqueueOptions, RunFinished } from './queue-runs.js';
export type { StoreContext } from './repository-context.js';
