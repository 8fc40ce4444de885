import type { Template } from '../../../contract/index.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileNameFor } from './support/slug.js';

const verb = (parent: Parent) =>
  parent
    .command('pull')
    .description("Write the account's templates into a folder, one JSON file each (for git)")
    .argument('<dir>', 'the folder (created when missing)')
    .option('--force', 'overwrite files with local edits too (see below)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates pull templates/
  $ reportctl templates pull templates/ --json    # [{ name, id, file }]

Each file holds one template as POST accepts it (no id, owner or timestamps), its keys in the
contract's order, so pulling twice writes the same bytes. A template goes to the file that
already holds its name, whatever that file is called; a new one to a file named after it
(lot-7-stand-count.json, with -2 where two names would clash). Other files are left alone and
listed on stderr. Two templates or files with one name: exit 2, and nothing is written.

A local edit is never lost silently. In a git work tree, a file that differs from the
service's template and has changes git does not hold as committed (modified, staged,
untracked) is kept; outside git, every file that differs from the service's template is kept.
Kept files are listed, the rest are written, and the exit status is 11; --force overwrites
them. Every *.json entry must be a readable file (exit 2 otherwise, before anything is
written). Files are written before anything is printed, so a closed pipe never cuts a pull
short.`,
    );
export type TemplatesPullOptions = OptionsOf<typeof verb>;

export function registerTemplatesPull(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesPullOptions, [dir: string]> = (options, dir) => runTemplatesPull(dir, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesPull(dir: string, options: TemplatesPullOptions, deps: CliDeps): Promise<void> {
  // The folder's reader loads zod (the contract).
  const [folder, { filesWithLocalEdits }] = await Promise.all([import('./support/folder.js'), import('./support/local-edits.js')]);
  const { filesByName, nameIn, quoted, readFolder, serviceTemplatesByName, shown, templateFileText } = folder;
  // What the folder holds now: a file that is not JSON, or holds no name, matches no template.
  const existing = (await readFolder(dir, true)).map((entry) => ({ ...entry, body: jsonOrUndefined(entry.text) }));
  const holders = filesByName(existing);
  const session = await deps.api(options);
  const templates = [...(await serviceTemplatesByName(session, deps)).values()];

  // The oldest template keeps the plain slug when two would clash, so the names stay put.
  templates.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  const taken = new Set(existing.map((entry) => entry.name.toLowerCase()));
  const planned = templates.map((template) => {
    const holder = holders.get(template.name);
    const text = templateFileText(template);
    const before = holder?.text;
    const status: 'new' | 'unchanged' | 'updated' = before === undefined ? 'new' : before === text ? 'unchanged' : 'updated';
    return { template, name: holder?.name, file: holder?.file ?? join(dir, fileNameFor(template.name, taken)), text, status };
  });
  // A file pull would overwrite may hold work of someone's that exists nowhere else.
  const overwritten = planned.filter((entry) => entry.status === 'updated');
  const { inGit, edited } = options.force ? { inGit: false, edited: new Set<string>() } : await filesWithLocalEdits(dir, overwritten.map((entry) => entry.name!));
  const kept = overwritten.filter((entry) => edited.has(entry.name!));

  const counts = await writePulled(dir, planned, kept);
  const lines = options.json
    ? [JSON.stringify(planned.filter((entry) => !kept.includes(entry)).map(({ template, file }) => ({ name: template.name, id: template.id, file })))]
    : planned.map((entry) => `${(kept.includes(entry) ? 'kept' : entry.status).padEnd(9)} ${shown(entry.file)} ${quoted(entry.template.name)}`);
  deps.io.stdout.write(lines.map((line) => line + '\n').join(''));
  // A reader that went away (`| head`) did not get the report: not a success.
  if ((deps.io.stdout as { errored?: unknown }).errored) throw new CliError(`stdout was closed before the report was written; every file was written to ${shown(dir)}`, ExitCode.failed);
  const pulled = new Set(planned.map((entry) => entry.file));
  for (const { file, body } of existing) {
    if (!pulled.has(file)) writeLine(deps.io.stderr, `left alone, not a template of the account: ${shown(file)}${nameIn(body) === undefined ? ' (holds no template name)' : ''}`);
  }
  const keptNote = counts.kept > 0 ? `, ${counts.kept} kept` : '';
  writeLine(deps.io.stderr, `pulled ${templates.length - counts.kept} templates into ${shown(dir)}: ${counts.new} new, ${counts.updated} updated, ${counts.unchanged} unchanged${keptNote}`);
  if (kept.length > 0) {
    const why = inGit ? 'has changes git does not hold as committed' : 'differs from the service and the folder is not in a git work tree';
    throw new CliError(`${kept.length === 1 ? `${shown(kept[0]!.file)} was kept: it` : `${kept.length} files were kept: each`} ${why}`, ExitCode.localEditsKept, 'commit or stash the edits, or pass --force to overwrite them with what the service holds', {
      code: 'LOCAL_EDITS',
      issues: kept.map(({ file, template }) => ({ path: file, message: `kept; the service's ${quoted(template.name)} differs` })),
    });
  }
}

interface Pulled {
  template: Template;
  file: string;
  text: string;
  status: 'new' | 'unchanged' | 'updated';
}

/** Writes the new and updated files (not those kept for their local edits); the count of each. */
async function writePulled(dir: string, planned: readonly Pulled[], kept: readonly Pulled[]): Promise<Record<Pulled['status'] | 'kept', number>> {
  // The atomic writer loads node:crypto.
  const [{ shown }, { writeFileAtomically }] = await Promise.all([import('./support/folder.js'), import('../../output/output-file.js')]);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create the folder ${shown(dir)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.failed);
  }
  // Every file is written before the first line is printed: a reader that goes away (\`| head\`)
  // cannot cut the writing short.
  const counts = { new: 0, updated: 0, unchanged: 0, kept: 0 };
  for (const entry of planned) {
    if (kept.includes(entry)) {
      counts.kept += 1;
      continue;
    }
    if (entry.status !== 'unchanged') await writeFileAtomically(entry.file, entry.text, 'templates pull');
    counts[entry.status] += 1;
  }
  return counts;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
