import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver, chosen by the Node.js running the service (docs/storage.md):
 * - from Node 22, better-sqlite3 13, a Node-API addon shipped prebuilt in its package, so it
 *   runs on every later Node without a compiler;
 * - on Node 20, better-sqlite3 12, compiled at install, through the local package
 *   reportctl-sqlite-node20, which npm skips from Node 22 on (so nothing is compiled there).
 *   Built against Node 24.19+ headers it aborts the process in a garbage-collection finaliser.
 * Both have the same API.
 */
export type SqliteDriverName = 'better-sqlite3@12' | 'better-sqlite3@13';
export type DatabaseConstructor = typeof BetterSqlite3;

export interface SqliteDriver {
  name: SqliteDriverName;
  Database: DatabaseConstructor;
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The driver for a Node.js major version: each is installed only where it is used. */
export function driverFor(major = NODE_MAJOR): SqliteDriverName {
  return major >= 22 ? 'better-sqlite3@13' : 'better-sqlite3@12';
}

/** The package each driver is required from. */
export const DRIVER_PACKAGES: Record<SqliteDriverName, string> = {
  'better-sqlite3@12': 'reportctl-sqlite-node20',
  'better-sqlite3@13': 'better-sqlite3-napi',
};

let loaded: SqliteDriver | undefined;

/** This Node's driver, loaded once. Throws a reason. */
export function sqliteDriver(): SqliteDriver {
  if (loaded === undefined) {
    const name = driverFor();
    loaded = { name, Database: load(name) };
  }
  return loaded;
}

function load(name: SqliteDriverName): DatabaseConstructor {
  try {
    // A plain require: the bundle leaves both packages in node_modules, and the one this Node
    // does not use is absent (each is an optional dependency).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require(DRIVER_PACKAGES[name]) as DatabaseConstructor;
    // The addon loads with the first connection: a missing build is found here, not mid-open.
    new Database(':memory:').close();
    return Database;
  } catch (error) {
    throw new Error(missingDriverMessage(name, process.versions.node), { cause: error });
  }
}

/** What `serve` and `admin` say when the driver does not load, and how to get it (README, Install). */
export function missingDriverMessage(name: SqliteDriverName, nodeVersion: string): string {
  // Node 20's driver comes from the second tarball `npm run pack` writes, and is compiled.
  const how =
    name === 'better-sqlite3@12'
      ? 'reinstall reportctl with its install scripts allowed and reportctl-sqlite-node20.tgz beside reportctl.tgz'
      : 'reinstall reportctl';
  return `its SQLite driver (${name}, package ${DRIVER_PACKAGES[name]}) is not installed or was not built for Node.js ${nodeVersion}; ${how} (README, Install)`;
}
