import { constants } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { templateBodyInContractOrder, type Template } from '../../../../contract/index.js';
import { decodeUtf8, NotUtf8Error } from '../../../../encoding/utf8.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { CliError, ExitCode, NOT_UTF8_HINT, UsageError } from '../../../cmdutil/errors.js';
import { unreadableReason } from '../../../cmdutil/input.js';
import { escapeControls, SERVICE_ID } from '../../../iostreams/sanitize.js';
import type { Session } from '../../../session/session.js';

/** A template file of the folder: its path as shown (DIR/NAME.json) and what it holds. */
export interface TemplateFile {
  file: string;
  body: unknown;
}

/** The bytes a template is kept as: its body in the contract's key order, 2-space indent, final newline. */
export function templateFileText(document: object): string {
  return JSON.stringify(templateBodyInContractOrder(document), null, 2) + '\n';
}

/** The `name` a document holds, if it holds one. */
export function nameIn(body: unknown): string | undefined {
  const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** `"name"` for a line people read: a name is the service's text, or a file's. */
export const quoted = (name: string) => `"${escapeControls(name)}"`;

/** A path for a line people read: a file name in a pull request is anyone's text. */
export const shown = (file: string) => escapeControls(file);

/** A `*.json` entry of the folder, read: its path as shown (DIR/NAME.json) and its text. */
export interface FolderEntry {
  /** The entry's name in the folder. */
  name: string;
  file: string;
  text: string;
}

/**
 * Every `*.json` entry directly in `dir` (not in subfolders; dotfiles are left out), read, by
 * name. A symbolic link to a regular file is read through it. An entry that is not a readable
 * regular file (a dangling link, a folder, a FIFO, no permission) is never taken as "no
 * template": the run stops with a usage error (exit 2) naming each one, before anything is
 * planned. A folder that cannot be read is a usage error too; `missingOk` takes a missing one
 * as empty.
 */
export async function readFolder(dir: string, missingOk = false): Promise<FolderEntry[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (missingOk && code === 'ENOENT') return [];
    throw new UsageError(`cannot read the folder ${escapeControls(dir)}: ${code ?? String(error)}`);
  }
  const names = entries.filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
  const read = await Promise.all(names.map(async (name) => ({ name, file: join(dir, name), ...(await readRegularFile(join(dir, name))) })));
  const unreadable = read.filter((entry) => entry.problem !== undefined);
  if (unreadable.length > 0) {
    const issues = unreadable.map(({ file, problem }) => ({ path: file, message: problem! }));
    const summary = unreadable.length === 1 ? `${escapeControls(issues[0]!.path)} ${issues[0]!.message}` : `${unreadable.length} entries of ${escapeControls(dir)} are not readable template files`;
    const hint = unreadable.every((entry) => entry.notUtf8) ? NOT_UTF8_HINT : 'every *.json entry of the folder must be a regular file (a template), or be removed or renamed';
    throw new CliError(`${summary}; nothing was planned or written`, ExitCode.usage, hint, {
      code: 'UNREADABLE_FILE',
      issues,
    });
  }
  return read.map(({ name, file, text }) => ({ name, file, text: text! }));
}

/**
 * A file's text, or why it is not a readable regular file. Opened without blocking, so a FIFO
 * named like a template cannot hold the run; what was opened is then checked to be a file.
 */
async function readRegularFile(file: string): Promise<{ text?: string; problem?: string; notUtf8?: boolean }> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && (await lstat(file).catch(() => undefined))?.isSymbolicLink()) return { problem: 'is a symbolic link to nothing (ENOENT)' };
    return { problem: `cannot be read: ${unreadableReason(error)}` };
  }
  try {
    const status = await handle.stat();
    if (status.isDirectory()) return { problem: 'is a folder, not a file' };
    if (!status.isFile()) return { problem: 'is not a regular file (a FIFO, socket or device)' };
    return { text: decodeUtf8(await handle.readFile()) };
  } catch (error) {
    if (error instanceof NotUtf8Error) return { problem: `is ${error.message}`, notUtf8: true };
    return { problem: `cannot be read: ${unreadableReason(error)}` };
  } finally {
    await handle.close();
  }
}

/** Files by the name they hold; two files with one name are exit 2, listed, before anything is written. */
export function filesByName<T extends TemplateFile>(files: readonly T[]): Map<string, T> {
  const byName = new Map<string, T>();
  const clashes: { path: string; message: string }[] = [];
  for (const entry of files) {
    const name = nameIn(entry.body);
    if (name === undefined) continue;
    const first = byName.get(name);
    if (first) clashes.push({ path: entry.file, message: `holds the name ${quoted(name)}, as ${first.file} does` });
    else byName.set(name, entry);
  }
  if (clashes.length > 0) {
    throw new CliError(`two files hold the same template name; nothing was written`, ExitCode.usage, 'a template is known by its exact name: give each file its own', {
      code: 'DUPLICATE_NAME',
      issues: clashes,
    });
  }
  return byName;
}

/**
 * Every template of the account (the list, paced under the rate limit: one request per 100),
 * by name. Two templates with one name cannot be told apart by a folder: exit 2, listed.
 */
export async function serviceTemplatesByName(session: Session, deps: CliDeps): Promise<Map<string, Template>> {
  deps.io.progress.update('reading the templates');
  const byName = new Map<string, Template>();
  const clashes: { path: string; message: string }[] = [];
  const strangers: { path: string; message: string }[] = [];
  for await (const template of session.api.templates.listAll({}, deps.signal)) {
    // An id is printed, saved in plans and put in PUT and DELETE paths: only the service's shape.
    if (!SERVICE_ID.test(template.id)) {
      strangers.push({ path: escapeControls(template.id), message: `the id of ${quoted(template.name)} is not one of the service's ids` });
      continue;
    }
    const first = byName.get(template.name);
    if (first) clashes.push({ path: template.id, message: `${quoted(template.name)}, the name of ${first.id} too` });
    else byName.set(template.name, template);
  }
  deps.io.progress.stop();
  if (strangers.length > 0) {
    throw new CliError(`the service listed ${strangers.length === 1 ? 'a template' : `${strangers.length} templates`} with an id that is not one of its ids (1 to 128 letters, digits, _ and -); nothing was planned or written`, ExitCode.failed, undefined, {
      code: 'UNEXPECTED_RESPONSE',
      issues: strangers,
    });
  }
  if (clashes.length > 0) {
    throw new CliError('the service has two templates with the same name; nothing was written', ExitCode.usage, 'rename or delete one of them (`reportctl templates list`)', {
      code: 'DUPLICATE_NAME',
      issues: clashes,
    });
  }
  return byName;
}
