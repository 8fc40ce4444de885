import type Database from 'better-sqlite3';
import { walIndexWatch } from './wal-index.js';

// SQL helpers every repository uses, over one connection.

/** Prepares each distinct SQL text once per connection (filters make a handful of variants). */
export function statementCache(db: Database.Database) {
  const cache = new Map<string, Database.Statement<unknown[]>>();
  return (sql: string): Database.Statement<unknown[]> => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** `WHERE` over fixed column names (never caller text) and their values, skipping undefined. */
export function whereOf(conditions: ReadonlyArray<readonly [column: string, value: unknown]>): {
  sql: string;
  params: unknown[];
} {
  const present = conditions.filter(([, value]) => value !== undefined);
  return {
    sql: present.length === 0 ? '' : `WHERE ${present.map(([column]) => `${column} = ?`).join(' AND ')}`,
    params: present.map(([, value]) => value),
  };
}

/**
 * PRAGMA data_version of one connection: it changes whenever another connection (an admin
 * command in another process) commits, so what is cached against it is dropped once a change
 * is seen. It does not see this connection's own writes: their code drops the cache itself.
 */
export interface DataVersion {
  /** The version read at the latest request's start; read anew when no request has started. */
  (): number;
  /**
   * Reads the version for every cache checked until the next request starts (the key cache,
   * the faults, the catalogs, the list pages): one read per request instead of one per cache.
   * A commit that ended before a request was sent is always seen by it.
   * Requests read from sockets share one read per turn of the event loop: a turn serves the
   * requests its poll found waiting, all sent before the read. A request made in process
   * (Fastify's inject) reads anew, as its caller may have committed within the same turn.
   */
  atRequestStart(fromSocket?: boolean): void;
  close(): void;
}

export function dataVersionOf(db: Database.Database): DataVersion {
  const statement = db.prepare('PRAGMA data_version').pluck();
  // The pragma takes and drops a read lock (two fcntl calls), the largest part of a request
  // served from the caches. Where the WAL index shows that nothing committed since the last
  // reading, that reading still holds, and the pragma is not run.
  const walIndex = walIndexWatch(db);
  let latest: number | undefined;
  const readNow = (): number => {
    // The header is looked at before the pragma runs: a commit in between shows at the next look.
    if (walIndex === null || walIndex.changed() || latest === undefined) latest = statement.get() as number;
    return latest;
  };
  let read: number | undefined;
  // Under load one turn serves many requests, and the read is a system call: it is made by
  // the turn's first request from a socket and holds until the turn's immediates run.
  let readThisTurn = false;
  const turnEnded = () => {
    readThisTurn = false;
  };
  const version = (() => read ?? readNow()) as DataVersion;
  version.atRequestStart = (fromSocket = false) => {
    if (fromSocket && readThisTurn) return;
    read = readNow();
    if (fromSocket) {
      readThisTurn = true;
      setImmediate(turnEnded);
    }
  };
  version.close = () => walIndex?.close();
  return version;
}

export function isForeignKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
