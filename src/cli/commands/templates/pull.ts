import type { CliDeps } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { writeLine } from '../../io.js';
import type { Wrap } from '../../action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../verb.js';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileNameFor } from './support/slug.js';

const verb = (parent: Parent) =>
  parent
    .command('pull')
    .description("Write the account's templates into a folder, one JSON file each (for git)")
    .argument('<dir>', 'the folder (created when missing)')
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
listed on stderr. Two templates or files with one name: exit 2, and nothing is written.`,
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
  // The folder's reader loads zod (the contract); the atomic writer, node:crypto.
  const [folder, { writeFileAtomically }] = await Promise.all([import('./support/folder.js'), import('../../output-file.js')]);
  const { filesByName, nameIn, quoted, serviceTemplatesByName, templateFileNames, templateFileText } = folder;
  // What the folder holds now: a file that is not JSON, or holds no name, matches no template.
  const names = await templateFileNames(dir, true);
  const existing = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      let body: unknown;
      try {
        body = text === undefined ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { name, file, body, text };
    }),
  );
  const holders = filesByName(existing);
  const session = await deps.api(options);
  const templates = [...(await serviceTemplatesByName(session, deps)).values()];

  // The oldest template keeps the plain slug when two would clash, so the names stay put.
  templates.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  const taken = new Set(names.map((name) => name.toLowerCase()));
  const planned = templates.map((template) => {
    const holder = holders.get(template.name);
    return { template, file: holder?.file ?? join(dir, fileNameFor(template.name, taken)), text: templateFileText(template), before: holder?.text };
  });

  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create the folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.failed);
  }
  const counts = { new: 0, updated: 0, unchanged: 0 };
  for (const { template, file, text, before } of planned) {
    const status = before === undefined ? 'new' : before === text ? 'unchanged' : 'updated';
    if (status !== 'unchanged') await writeFileAtomically(file, text, 'templates pull');
    counts[status] += 1;
    if (!options.json) writeLine(deps.io.stdout, `${status.padEnd(9)} ${file} ${quoted(template.name)}`);
  }
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify(planned.map(({ template, file }) => ({ name: template.name, id: template.id, file }))));
  }
  const pulled = new Set(planned.map((entry) => entry.file));
  for (const { file, body } of existing) {
    if (!pulled.has(file)) writeLine(deps.io.stderr, `left alone, not a template of the account: ${file}${nameIn(body) === undefined ? ' (holds no template name)' : ''}`);
  }
  writeLine(deps.io.stderr, `pulled ${templates.length} templates into ${dir}: ${counts.new} new, ${counts.updated} updated, ${counts.unchanged} unchanged`);
}
