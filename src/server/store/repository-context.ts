import type Database from 'better-sqlite3';
import type { Paginated } from '../../contract/index.js';
import type { SteppedReader } from './readers.js';
import type { DataVersion, statementCache } from './statements.js';

/** What every repository shares: the connection and the injected clock and id source. */
export interface StoreContext {
  db: Database.Database;
  now: () => Date;
  randomId: () => string;
  /**
   * Runs `read` in one read transaction, so a count and a page come from the same snapshot
   * even while another process writes (WAL). One wrapper per connection: building a
   * transaction function on every list request cost more than its two queries.
   */
  snapshot: <T>(read: () => T) => T;
  /** Reads too long to run in one go (a page of large documents), in one snapshot all the same. */
  readers: SteppedReader;
  /** The connection's PRAGMA data_version, shared by every cache of the store. */
  dataVersion: DataVersion;
}

export function snapshotReader(db: Database.Database): StoreContext['snapshot'] {
  const transaction = db.transaction((read: () => unknown) => read());
  return <T>(read: () => T) => transaction.deferred(read) as T;
}

/** ISO 8601 UTC with milliseconds, the one timestamp format the service writes. */
export const timestamp = (context: StoreContext): string => context.now().toISOString();

/** The one ordering of every list: newest first, insertion order among equal times. */
export const NEWEST_FIRST = 'ORDER BY created_at DESC, seq DESC';

export interface PageRequest {
  page: number;
  limit: number;
}

export function envelope<T>(total: number, request: PageRequest, data: T[]): Paginated<T> {
  return { total, page: request.page, limit: request.limit, data };
}

/**
 * One page of a filtered table. Count and rows are read in one transaction so that, in WAL
 * mode, both see the same snapshot even while another process writes.
 */
export function pageQuery<Row, T>(
  context: StoreContext,
  prepare: ReturnType<typeof statementCache>,
  table: string,
  columns: string,
  where: { sql: string; params: unknown[] },
  request: PageRequest,
  toItem: (row: Row) => T,
): Paginated<T> {
  return context.snapshot(() => {
    const total = prepare(`SELECT count(*) FROM ${table} ${where.sql}`).pluck().get(...where.params) as number;
    const rows = prepare(`SELECT ${columns} FROM ${table} ${where.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?`).all(
      ...where.params,
      request.limit,
      (request.page - 1) * request.limit,
    ) as Row[];
    return envelope(total, request, rows.map(toItem));
  });
}
