import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver, chosen by the Node.js running the service (docs/storage.md):
 * - from Node 22, better-sqlite3 13, a Node-API addon shipped prebuilt in its package, so it
 *   runs on every later Node without a compiler;
 * - on Node 20, better-sqlite3 12, compiled at install. Built against Node 24.19+ headers it
 *   aborts the process in a garbage-collection finaliser, so it is never used from Node 22 on.
 * Both have the same API. REPORTCTL_SQLITE_DRIVER names one where both can run (Node 22, 23).
 */
export type SqliteDriverName = 'better-sqlite3@12' | 'better-sqlite3@13';
export type DatabaseConstructor = typeof BetterSqlite3;

export interface SqliteDriver {
  name: SqliteDriverName;
  Database: DatabaseConstructor;
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The drivers that can run on this Node.js, the default first. */
export function usableDrivers(major = NODE_MAJOR): SqliteDriverName[] {
  if (major >= 24) return ['better-sqlite3@13'];
  if (major >= 22) return ['better-sqlite3@13', 'better-sqlite3@12'];
  return ['better-sqlite3@12'];
}

const PACKAGES: Record<SqliteDriverName, string> = {
  'better-sqlite3@12': 'better-sqlite3',
  'better-sqlite3@13': 'better-sqlite3-napi',
};

const loaded = new Map<SqliteDriverName, SqliteDriver>();

/** The driver named by REPORTCTL_SQLITE_DRIVER, or this Node's default; loaded once. Throws a reason. */
export function sqliteDriver(requested = process.env.REPORTCTL_SQLITE_DRIVER): SqliteDriver {
  const usable = usableDrivers();
  const name = (requested === undefined || requested === '' ? usable[0] : requested) as SqliteDriverName;
  if (!usable.includes(name)) {
    throw new Error(`REPORTCTL_SQLITE_DRIVER=${requested} cannot run on Node.js ${process.versions.node}; use ${usable.join(' or ')}`);
  }
  let driver = loaded.get(name);
  if (driver === undefined) {
    driver = { name, Database: load(name) };
    loaded.set(name, driver);
  }
  return driver;
}

function load(name: SqliteDriverName): DatabaseConstructor {
  const pkg = PACKAGES[name];
  try {
    // A plain require: the bundle leaves both packages in node_modules, and the one this Node
    // does not use may be absent (each is an optional dependency).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require(pkg) as DatabaseConstructor;
    // The addon loads with the first connection: a missing build is found here, not mid-open.
    new Database(':memory:').close();
    return Database;
  } catch (error) {
    throw new Error(
      `its SQLite driver (${name}, package ${pkg}) is not installed or was not built for Node.js ${process.versions.node}; reinstall reportctl with its install scripts allowed (README, Install)`,
      { cause: error },
    );
  }
}
