import { join } from 'node:path';
import { buildApp } from './app.js';
import { seededRandom } from './admission/faults.js';
import { DashboardCodes } from './dashboard-codes.js';
import { limitsOf, type LimitOptions } from './limits.js';
import { startSimulator } from './simulator.js';
import { openStore } from './open-store.js';
import { isBusyError, SERVING_BUSY_TIMEOUT_MS, setBusyTimeout, type Store } from './store/index.js';
import { ensureDemoAccount, nextDemoRun, type DemoKeys } from './seed/demo-account.js';

export interface ServerOptions extends LimitOptions {
  host: string;
  /** More host names requests may be addressed to (`serve --allow-host`); `host` and loopback always. */
  allowHosts?: readonly string[];
  port: number;
  dbPath: string;
  demo: boolean;
  /** Milliseconds per life-cycle step of every active run; undefined: runs move only by admin. */
  simulateStepMs?: number;
  accessLog?: (line: string) => void;
  errorLog?: (error: unknown) => void;
  /** Told what the user should know and fix (a database file other users can read). */
  warn?: (message: string) => void;
  /** Fault injection for tests: caps the database's size so writes fail as on a full disk. */
  maxPageCount?: number;
  /** Run on the opened store before the demo account and before listening (`serve --import`, `--fault`). */
  prepare?: (store: Store) => void;
  /** Run after the requests in flight finished, before the store closes (`serve --export-on-exit`). */
  beforeClose?: (store: Store) => void;
  /** Seed of the random source of faults with a rate below 1; default: a random one. */
  faultSeed?: number;
  /** The clock of the rate limits and the access log; tests give a fake one. */
  now?: () => number;
}

export interface RunningServer {
  url: string;
  dbPath: string;
  demoKeys?: DemoKeys;
  /** With the demo and a built dashboard: a one-time code the dashboard trades for the owner key. */
  dashboardCode?: string;
  store: Store;
  /** Stops accepting, finishes the requests in flight, then closes the database. */
  close(): Promise<void>;
}

/** The store opened, the import or other preparation done and the demo account made; closed again if either fails. */
function openPrepared(options: ServerOptions): { store: Store; demoKeys: DemoKeys | undefined } {
  const store = openStore(options.dbPath, { maxPageCount: options.maxPageCount, onWarning: options.warn });
  try {
    options.prepare?.(store);
    return { store, demoKeys: options.demo ? ensureDemoAccount(store) : undefined };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Queue runs advance in real time, one step per stepMs; returns what stops them. */
function simulate(store: Store, stepMs: number, options: ServerOptions, demoKeys: DemoKeys | undefined): () => void {
  return startSimulator(
    store,
    stepMs,
    (error) => {
      // A locked database only delays the runs to the next tick.
      if (!isBusyError(error)) options.errorLog?.(error);
    },
    demoKeys ? nextDemoRun(store, demoKeys.accountId) : undefined,
  );
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { store, demoKeys } = openPrepared(options);
  // From here on, requests wait for another process's lock between attempts (store/busy.ts).
  setBusyTimeout(store.db, SERVING_BUSY_TIMEOUT_MS);
  // Beside the built service (dist/embedded.cjs); from the sources, there is none.
  const dashboardDir = typeof __dirname === 'string' ? join(__dirname, 'dashboard') : undefined;
  const dashboardCodes = new DashboardCodes();
  const app = buildApp({
    ...limitsOf(options),
    store,
    ...(options.accessLog ? { accessLog: options.accessLog } : {}),
    ...(options.errorLog ? { errorLog: options.errorLog } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(dashboardDir !== undefined ? { dashboardDir, dashboardCodes } : {}),
    hostNames: [options.host, ...(options.allowHosts ?? [])],
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
  const stopSimulator = options.simulateStepMs !== undefined ? simulate(store, options.simulateStepMs, options, demoKeys) : () => {};
  return {
    url: `http://${host}:${port}`,
    dbPath: options.dbPath,
    ...(demoKeys ? { demoKeys } : {}),
    ...(demoKeys && dashboardDir !== undefined ? { dashboardCode: dashboardCodes.issue(demoKeys.ownerKey) } : {}),
    store,
    close: async () => {
      stopSimulator();
      await app.close();
      try {
        options.beforeClose?.(store);
      } finally {
        store.close();
      }
    },
  };
}
