import { closeSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * The two copies of the WAL-index header at the start of a WAL database's `-shm` file
 * (https://www.sqlite.org/walformat.html). Every commit, by any connection in any process,
 * rewrites them (a change counter, the frame count and checksums) before it ends.
 */
const HEADER_BYTES = 96;

/** Tells whether a WAL database may have changed since the last look. */
export interface WalIndexWatch {
  /**
   * False only when the header is byte for byte what it was at the previous call: then nothing
   * committed in between. True on the first call, on any difference, and when it cannot read.
   */
  changed(): boolean;
  close(): void;
}

/**
 * A watch on the connection's WAL index: one read of its header, without a lock. Null where
 * there is none to read (a database in memory, or not in WAL mode).
 */
export function walIndexWatch(db: Database.Database): WalIndexWatch | null {
  if (db.memory || String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
  let fd: number;
  try {
    fd = openSync(`${db.name}-shm`, 'r');
  } catch {
    return null;
  }
  const seen = Buffer.alloc(HEADER_BYTES);
  const read = Buffer.alloc(HEADER_BYTES);
  let known = false;
  return {
    changed() {
      let bytes = 0;
      try {
        bytes = readSync(fd, read, 0, HEADER_BYTES, 0);
      } catch {
        // Unreadable now: changed, as far as anyone can tell.
      }
      if (bytes !== HEADER_BYTES) {
        known = false;
        return true;
      }
      if (known && read.equals(seen)) return false;
      read.copy(seen);
      known = true;
      return true;
    },
    close() {
      closeSync(fd);
    },
  };
}
