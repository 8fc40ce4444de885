import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Fault } from '../../contract/faults.js';
import { accountsRepository, keysRepository, type Caller } from './accounts.js';
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

/** What the service reads of the store as a request starts (see atRequestStart). */
export interface RequestStart {
  /** The owner of the key whose hash was given; null for none, or an unknown or revoked key. */
  caller: Caller | null;
  /** The injected faults that can still act, oldest first. */
  faults: readonly Fault[];
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
  const keys = keysRepository(context);
  const faults = faultsRepository(context);
  const store = {
    db,
    accounts: accountsRepository(context),
    keys,
    templates: templatesRepository(context),
    catalogs: catalogsRepository(context),
    presets: presetsRepository(context),
    queues: queuesRepository(context),
    queueRuns: queueRunsRepository(context),
    analyses: analysesRepository(context),
    faults,
    snapshots: snapshotsRepository(context),
    /**
     * The request gate's one visit to the store, as each request starts: the database's version
     * is read once (see DataVersion) and shared by every cache the request checks, here and in
     * its handler; then the caller of the key (by its hash) and the live faults, both cached
     * against that version. A request from a socket passes `fromSocket`.
     */
    atRequestStart(fromSocket: boolean, keyHash: string | null): RequestStart {
      context.dataVersion.atRequestStart(fromSocket);
      return { caller: keyHash === null ? null : keys.authenticateHash(keyHash), faults: faults.live() };
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
export type { ReserveBytes, TemplateFilter, TemplateLimitExceeded } from './templates.js';
export type { AnalysisFilter, NewAnalysis } from './analyses.js';
export type { NewQueue } from './queues.js';
export type { EnqueueOptions, RunFinished } from './queue-runs.js';
export type { StoreContext } from './repository-context.js';
