import { join } from 'node:path';
import { buildApp } from './app.js';
import { startSimulator } from './simulator.js';
import { openStore } from './open-store.js';
import { isBusyError, setBusyTimeout, type Store } from './store/index.js';
import { ensureDemoAccount, nextDemoRun, type DemoKeys } from '../admin/demo.js';
import { addFault } from '../admin/faults.js';
import { checkSnapshotTarget, exportSnapshot, importSnapshot, readSnapshotFile, writeSnapshotFile } from '../admin/snapshot.js';
import type { NewFault } from '../contract/faults.js';
import { seededRandom } from './faults.js';

/** How long one statement may block the event loop on a lock before it is retried later. */
const SERVING_BUSY_TIMEOUT_MS = 10;

export interface ServerOptions {
  host: string;
  port: number;
  dbPath: string;
  demo: boolean;
  /** Milliseconds per life-cycle step of every active run; undefined: runs move only by admin. */
  simulateStepMs?: number;
  readsPerMinute: number;
  writesPerMinute: number;
  accessLog?: (line: string) => void;
  errorLog?: (error: unknown) => void;
  /** Told what the user should know and fix (a database file other users can read). */
  warn?: (message: string) => void;
  /** Deadlines for a whole request and for its headers (defaults 30 s and 10 s). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Fault injection for tests: caps the database's size so writes fail as on a full disk. */
  maxPageCount?: number;
  /** The rolling window the read and write limits count over (default 60 s). */
  rateWindowMs?: number;
  /** A snapshot file loaded at start, into a database without accounts. */
  importFile?: string;
  /** Where a snapshot is written at a clean shutdown (atomically). */
  exportOnExit?: string;
  /** Faults added at start, after the import. */
  faults?: readonly NewFault[];
  /** Seed of the random source of faults with a rate below 1; default: a random one. */
  faultSeed?: number;
}

export interface RunningServer {
  url: string;
  dbPath: string;
  demoKeys?: DemoKeys;
  store: Store;
  /** Stops accepting, finishes the requests in flight, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (options.exportOnExit !== undefined) checkSnapshotTarget(options.exportOnExit);
  const store = openStore(options.dbPath, { maxPageCount: options.maxPageCount, onWarning: options.warn });
  let demoKeys: DemoKeys | undefined;
  try {
    if (options.importFile !== undefined) {
      const snapshot = readSnapshotFile(options.importFile);
      if (store.snapshots.hasAccounts()) {
        throw new Error(
          `--import: ${options.dbPath} already has accounts; serve the snapshot from :memory: (leave out --db) or an empty file, or replace them with \`reportctl admin import --replace\``,
        );
      }
      importSnapshot(store, snapshot, { source: options.importFile });
    }
    for (const fault of options.faults ?? []) addFault(store, fault);
    demoKeys = options.demo ? ensureDemoAccount(store) : undefined;
  } catch (error) {
    store.close();
    throw error;
  }
  // From here on, requests wait for another process's lock between attempts (see app.ts).
  setBusyTimeout(store.db, SERVING_BUSY_TIMEOUT_MS);
  const app = buildApp({
    store,
    readsPerMinute: options.readsPerMinute,
    writesPerMinute: options.writesPerMinute,
    ...(options.accessLog ? { accessLog: options.accessLog } : {}),
    ...(options.errorLog ? { errorLog: options.errorLog } : {}),
    requestTimeoutMs: options.requestTimeoutMs,
    headersTimeoutMs: options.headersTimeoutMs,
    rateWindowMs: options.rateWindowMs,
    // Beside the built service (dist/embedded.cjs); from the sources, there is none.
    ...(typeof __dirname === 'string' ? { dashboardDir: join(__dirname, 'dashboard') } : {}),
    faultRandom: seededRandom(options.faultSeed ?? Math.floor(Math.random() * 2 ** 32)),
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const stopSimulator =
    options.simulateStepMs !== undefined
      ? startSimulator(
          store,
          options.simulateStepMs,
          (error) => {
            // A locked database only delays the runs to the next tick.
            if (!isBusyError(error)) options.errorLog?.(error);
          },
          demoKeys ? nextDemoRun(store, demoKeys.accountId) : undefined,
        )
      : () => {};
  return {
    url: `http://${host}:${port}`,
    dbPath: options.dbPath,
    ...(demoKeys ? { demoKeys } : {}),
    store,
    close: async () => {
      stopSimulator();
      await app.close();
      try {
        // After the requests in flight: every acknowledged write is in it.
        if (options.exportOnExit !== undefined) writeSnapshotFile(options.exportOnExit, exportSnapshot(store));
      } finally {
        store.close();
      }
    },
  };
}
