import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { templateBodyInContractOrder, type Template } from '../../../../contract/index.js';
import type { CliDeps } from '../../../context.js';
import { CliError, ExitCode, UsageError } from '../../../errors.js';
import { parseJsonText } from '../../../input.js';
import { escapeControls } from '../../../sanitize.js';
import type { Session } from '../../../session.js';

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

/**
 * The `*.json` files directly in `dir` (not in subfolders; dotfiles are left out), by name.
 * A folder that cannot be read is a usage error; `missingOk` takes a missing one as empty.
 */
export async function templateFileNames(dir: string, missingOk = false): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (missingOk && code === 'ENOENT') return [];
    throw new UsageError(`cannot read the folder ${dir}: ${code ?? String(error)}`);
  }
  const names = entries.filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
  const files = await Promise.all(names.map(async (name) => ((await stat(join(dir, name)).catch(() => undefined))?.isFile() ? name : undefined)));
  return files.filter((name) => name !== undefined);
}

/** Every template file of `dir`, parsed; one that cannot be read or is not JSON is a usage error (exit 2). */
export async function readTemplateFiles(dir: string): Promise<TemplateFile[]> {
  const names = await templateFileNames(dir);
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      return { file, body: await parseJsonText(text, file) };
    }),
  );
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
  session.progress.update('reading the templates');
  const byName = new Map<string, Template>();
  const clashes: { path: string; message: string }[] = [];
  for await (const template of session.api.templates.listAll({}, deps.signal)) {
    const first = byName.get(template.name);
    if (first) clashes.push({ path: template.id, message: `${quoted(template.name)}, the name of ${first.id} too` });
    else byName.set(template.name, template);
  }
  session.progress.stop();
  if (clashes.length > 0) {
    throw new CliError('the service has two templates with the same name; nothing was written', ExitCode.usage, 'rename or delete one of them (`reportctl templates list`)', {
      code: 'DUPLICATE_NAME',
      issues: clashes,
    });
  }
  return byName;
}
