import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { sqliteDriver } from './driver.js';
import { statementCache } from './statements.js';

/** Runs one SQL text with parameters and returns every row's first column. */
export type PluckAll = (sql: string, ...params: unknown[]) => unknown[];

/**
 * A read in steps: it yields between steps so other requests are served meanwhile, and
 * returns its result at the end. Every step reads from the same snapshot.
 */
export type SteppedRead<T> = (pluckAll: PluckAll) => Generator<void, T, void>;

/** Idle read-only connections kept for the next long read; more are opened while busy. */
const IDLE_READERS = 4;

interface Reader {
  db: Database.Database;
  pluckAll: PluckAll;
}

/**
 * Long reads (a page of large templates is tens of MiB) on read-only connections of their
 * own, in one read transaction that stays open across turns of the event loop: the snapshot
 * holds for the whole read (WAL), and the serving connection, whose writes must commit at
 * once, is never inside it. An in-memory database has no second connection: there the read
 * runs at once, in one snapshot of the serving connection.
 */
export type SteppedReader = ReturnType<typeof steppedReader>;

export function steppedReader(db: Database.Database, snapshot: <T>(read: () => T) => T) {
  const idle: Reader[] = [];
  const own = new Set<Reader>();
  const inMemory = db.memory;
  const mainPluck = pluckAllOn(db);

  function open(): Reader {
    const connection = new (sqliteDriver().Database)(db.name, { readonly: true, fileMustExist: true });
    const reader = { db: connection, pluckAll: pluckAllOn(connection) };
    own.add(reader);
    return reader;
  }

  return {
    /** The whole read at once, in one snapshot of the serving connection. */
    readNow<T>(stepped: SteppedRead<T>): T {
      return snapshot(() => runAll(stepped(mainPluck)));
    },
    /** The read in steps, on a connection of its own (see above). */
    async read<T>(stepped: SteppedRead<T>): Promise<T> {
      if (inMemory) return this.readNow(stepped);
      const reader = idle.pop() ?? open();
      reader.db.exec('BEGIN');
      try {
        const steps = stepped(reader.pluckAll);
        for (let step = steps.next(); ; step = steps.next()) {
          if (step.done) return step.value;
          await nextTurn();
        }
      } finally {
        reader.db.exec('COMMIT');
        if (idle.length < IDLE_READERS && reader.db.open) idle.push(reader);
        else {
          own.delete(reader);
          reader.db.close();
        }
      }
    },
    close(): void {
      for (const reader of own) reader.db.close();
      own.clear();
      idle.length = 0;
    },
  };
}

function pluckAllOn(db: Database.Database): PluckAll {
  const prepare = statementCache(db);
  return (sql, ...params) => prepare(sql).pluck().all(...params) as unknown[];
}

function runAll<T>(steps: Generator<void, T, void>): T {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}
