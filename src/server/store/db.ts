import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, setBusyTimeout } from './busy.js';
import { sqliteDriver } from './driver.js';
import { StoreOpenError } from './errors.js';
import { APPLICATION_ID, migrate, migrations, newerVersionError, userVersion } from './migrations.js';

export type Db = Database.Database;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface OpenDatabaseOptions {
  /**
   * Fault-injection hook for tests (`serve` reads REPORTCTL_TEST_MAX_PAGE_COUNT): caps this
   * connection's database at this many pages, so writes fail with SQLITE_FULL as on a full disk.
   */
  maxPageCount?: number | undefined;
  /** Told when an existing database file can be read by other users (see filePermissionWarnings). */
  onWarning?: ((message: string) => void) | undefined;
}

/** Folders the service creates for its database: only their owner may enter them. */
const PRIVATE_FOLDER_MODE = 0o700;
/** The database and its -wal and -shm files: only their owner may read them. */
const PRIVATE_FILE_MODE = 0o600;
const GROUP_OR_OTHERS_READ = 0o044;

/**
 * Opens (creating if needed) and migrates a reportctl database. A file that is not ours
 * is refused with a StoreOpenError before anything is written to it.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const inMemory = file === ':memory:';
  let driver: ReturnType<typeof sqliteDriver>;
  try {
    driver = sqliteDriver();
  } catch (error) {
    throw new StoreOpenError(file, messageOf(error), { cause: error });
  }
  const existed = !inMemory && refuseForeignHeader(file);
  if (!inMemory && !existed) {
    try {
      createPrivately(file);
    } catch (error) {
      throw new StoreOpenError(file, messageOf(error), { cause: error });
    }
  } else if (!inMemory) {
    for (const warning of filePermissionWarnings(file)) options.onWarning?.(warning);
  }

  let db: Db;
  try {
    db = new driver.Database(file, { timeout: BUSY_TIMEOUT_MS, fileMustExist: existed });
  } catch (error) {
    throw new StoreOpenError(file, messageOf(error), { cause: error });
  }
  try {
    setBusyTimeout(db, BUSY_TIMEOUT_MS);
    // Reads only until the file is known to be ours (or new and empty).
    refuseForeignSchema(db, file);
    db.pragma('journal_mode = WAL');
    // SQLite creates -wal and -shm with the database file's mode, which may be wider than
    // 0600 for an existing file: narrowed here, before this connection writes anything.
    if (!inMemory) for (const companion of companionsOf(file)) narrowCompanion(companion, options.onWarning);
    // FULL: a commit is on disk before it is acknowledged, WAL or not.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.trunc(options.maxPageCount)}`);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StoreOpenError) throw error;
    throw new StoreOpenError(file, messageOf(error), { cause: error });
  }
}

/**
 * The folders that are missing (0700) and an empty database file (0600), created with those
 * modes and then set to them again: the umask may have taken bits away from either, and
 * may be 0, which would make them readable by every local user.
 */
function createPrivately(file: string): void {
  const folder = path.dirname(path.resolve(file));
  const firstCreated = fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (firstCreated !== undefined) {
    for (let created = folder; ; created = path.dirname(created)) {
      fs.chmodSync(created, PRIVATE_FOLDER_MODE);
      if (created === firstCreated || created === path.dirname(created)) break;
    }
  }
  const fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
  try {
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

const companionsOf = (file: string) => [`${file}-wal`, `${file}-shm`];

/** 0600 when present; a file of another user (EPERM) is said, not fatal. */
function narrowCompanion(file: string, onWarning: OpenDatabaseOptions['onWarning']): void {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') onWarning?.(`warning: cannot make ${file} private (${code ?? messageOf(error)}): chmod 600 ${file}`);
  }
}

/**
 * A line when group or others can read an existing database. It is the user's file to
 * change: said, not changed (its -wal and -shm are narrowed to 0600 as it opens). Windows
 * has no such bits.
 */
export function filePermissionWarnings(file: string): string[] {
  if (process.platform === 'win32') return [];
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    return [];
  }
  if ((mode & GROUP_OR_OTHERS_READ) === 0) return [];
  return [`warning: ${file} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); it holds key hashes and every template: chmod 600 ${file}`];
}

/**
 * Refuses a file whose header says it is not SQLite, or SQLite of another application,
 * without opening it through SQLite (which could create -wal/-shm files beside it).
 * Returns whether the file exists.
 */
function refuseForeignHeader(file: string): boolean {
  let header: Buffer;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new StoreOpenError(file, 'it is not a regular file');
    if (stat.size === 0) return true;
    header = Buffer.alloc(100);
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, header, 0, 100, 0);
    } finally {
      fs.closeSync(fd);
    }
    if (stat.size < 100) throw notADatabase(file);
  } catch (error) {
    if (error instanceof StoreOpenError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new StoreOpenError(file, messageOf(error), { cause: error });
  }
  if (!header.subarray(0, 16).equals(SQLITE_MAGIC)) throw notADatabase(file);
  const applicationId = header.readInt32BE(68);
  // 0 is what most SQLite files carry, including ours before the first checkpoint: decided below.
  if (applicationId !== 0 && applicationId !== APPLICATION_ID) throw foreign(file, `application_id ${applicationId}`);
  return true;
}

/** Through SQLite (which sees the WAL): ours, or a database with nothing in it yet. */
function refuseForeignSchema(db: Db, file: string): void {
  let applicationId: number;
  let objects: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    objects = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
  } catch (error) {
    // SQLITE_NOTADB / SQLITE_CORRUPT: a valid header over a damaged body.
    throw new StoreOpenError(file, `it is corrupt or not an SQLite database (${messageOf(error)}); it was left untouched`, {
      cause: error,
    });
  }
  if (applicationId === APPLICATION_ID) {
    // migrate() refuses a newer file too, but only after the pragmas that write.
    const version = userVersion(db);
    if (version > migrations.length) throw newerVersionError(file, version);
    return;
  }
  if (applicationId !== 0 || objects > 0) {
    throw foreign(file, applicationId === 0 ? 'it has tables of its own' : `application_id ${applicationId}`);
  }
}

const notADatabase = (file: string) =>
  new StoreOpenError(file, 'it is not an SQLite database (or it is corrupt); it was left untouched');
const foreign = (file: string, why: string) =>
  new StoreOpenError(file, `it is an SQLite database of another application (${why}); it was left untouched`);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
