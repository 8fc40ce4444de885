import type Database from 'better-sqlite3';
import type { Paginated } from '../../contract/index.js';
import type { SteppedReader } from './readers.js';

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
 * PRAGMA data_version: it changes whenever another connection (an admin command in another
 * process) commits, so what is cached against it is dropped on the very next call after such
 * a change. It does not see this connection's own writes: their code drops the cache itself.
 */
export function dataVersionOf(db: Database.Database): () => number {
  const statement = db.prepare('PRAGMA data_version').pluck();
  return () => statement.get() as number;
}

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

export function isForeignKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
