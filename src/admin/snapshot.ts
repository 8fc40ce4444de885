import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { issuePath } from '../contract/index.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, snapshotSchema, type Snapshot } from '../contract/snapshot.js';
import type { Store } from '../server/store/index.js';
import { SnapshotConflict } from '../server/store/snapshot.js';
import { templateIssues } from '../server/template-rules.js';
import { AdminError } from './errors.js';

/** The whole state of the database as one snapshot document. */
export function exportSnapshot(store: Store, now: () => Date = () => new Date()): Snapshot {
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_FORMAT_VERSION, exportedAt: now().toISOString(), ...store.snapshots.read() };
}

/**
 * Checks a document read from a snapshot file. A newer format version is named as such
 * (upgrade reportctl), anything else that does not fit the schema is listed by path.
 */
export function checkSnapshot(document: unknown, source: string): Snapshot {
  const head = (document ?? {}) as { format?: unknown; version?: unknown };
  if (typeof document !== 'object' || document === null || head.format !== SNAPSHOT_FORMAT) {
    throw new AdminError('invalid', `${source} is not a reportctl snapshot (no "format": "${SNAPSHOT_FORMAT}")`);
  }
  if (typeof head.version === 'number' && head.version > SNAPSHOT_FORMAT_VERSION) {
    throw new AdminError(
      'conflict',
      `${source} was written by a newer reportctl (snapshot format version ${head.version}; this one reads up to ${SNAPSHOT_FORMAT_VERSION}); upgrade reportctl. Nothing was imported`,
    );
  }
  const parsed = snapshotSchema.safeParse(document);
  if (!parsed.success) {
    refuse(source, 'is damaged', parsed.error.issues.map((issue) => `${issuePath(issue.path) || '(top level)'}: ${issue.message}`));
  }
  // The stored bodies are the document's own objects, not zod's copies: zod rebuilds objects
  // with their known keys first, and the API's bytes depend on the original key order.
  const snapshot = document as Snapshot;
  refuse(source, "breaks the API's template rules", brokenTemplateRules(snapshot));
  return snapshot;
}

/** Throws when there are problems: the first five, each with its path in the file. */
function refuse(source: string, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  throw new AdminError('invalid', `${source} ${what}: ${problems.slice(0, 5).join('; ')}${more}. Nothing was imported`);
}

/** Every template checked as the API checks a body, against the snapshot's own catalogs. */
function brokenTemplateRules(snapshot: Snapshot): string[] {
  return snapshot.templates.flatMap(({ template }, index) =>
    templateIssues(template, snapshot.catalogs).map(({ path: at, message }) => {
      // The API's messages start with the field's own path; here the full path says it.
      const reason = message.startsWith(`${at}: `) ? message.slice(at.length + 2) : message;
      return `${['templates', index, 'template', ...(at === '' ? [] : [at])].join('.')}: ${reason}`;
    }),
  );
}

/**
 * Loads a checked snapshot, all or nothing. A database with accounts is refused unless
 * `replace`; with it, every account and its data are replaced (catalogs and presets too).
 */
export function importSnapshot(store: Store, snapshot: Snapshot, options: { replace?: boolean; source: string }): { accounts: number } {
  if (!options.replace && store.snapshots.hasAccounts()) {
    throw new AdminError('conflict', `the database already has accounts; pass --replace to replace everything in it with ${options.source}`);
  }
  const { format: _format, version: _version, exportedAt: _exportedAt, ...tables } = snapshot;
  try {
    store.snapshots.write(tables);
  } catch (error) {
    if (error instanceof SnapshotConflict || (error as { code?: unknown }).code?.toString().startsWith('SQLITE_CONSTRAINT')) {
      throw new AdminError('invalid', `${options.source} is damaged: ${(error as Error).message}. Nothing was imported`);
    }
    throw error;
  }
  return { accounts: tables.accounts.length };
}

/** Every account and its data gone; catalogs, presets and faults stay. */
export function resetDatabase(store: Store): { accounts: number } {
  return store.snapshots.reset();
}

/**
 * Writes a snapshot so that the file is either the old one or the whole new one: a temporary
 * file beside it (mode 0600: it holds key hashes), flushed to disk, then renamed over it.
 */
export function writeSnapshotFile(file: string, snapshot: Snapshot): void {
  try {
    writeAtomically(path.resolve(file), `${JSON.stringify(snapshot)}\n`);
  } catch (error) {
    throw new AdminError('failed', `cannot write the snapshot to ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Whether a snapshot could be written there: checked at start, not found out at exit. */
export function checkSnapshotTarget(file: string): void {
  const directory = path.dirname(path.resolve(file));
  try {
    fs.accessSync(directory, fs.constants.W_OK);
  } catch (error) {
    throw new AdminError('failed', `cannot write a snapshot to ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)} on ${directory}`);
  }
}

function writeAtomically(target: string, text: string): void {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** A snapshot's text (read by the CLI, as strict UTF-8) parsed and checked; AdminError for a damaged one. */
export function parseSnapshotText(text: string, source: string): Snapshot {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new AdminError('invalid', `${source} is damaged: not valid JSON (${error instanceof Error ? error.message : String(error)}). Nothing was imported`);
  }
  return checkSnapshot(document, source);
}
