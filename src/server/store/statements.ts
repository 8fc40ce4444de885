import type Database from 'better-sqlite3';

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
 * PRAGMA data_version: it changes whenever another connection (an admin command in another
 * process) commits, so what is cached against it is dropped on the very next call after such
 * a change. It does not see this connection's own writes: their code drops the cache itself.
 */
export function dataVersionOf(db: Database.Database): () => number {
  const statement = db.prepare('PRAGMA data_version').pluck();
  return () => statement.get() as number;
}

export function isForeignKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
