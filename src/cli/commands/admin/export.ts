import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { writeData } from '../../iostreams/io.js';
import { loadEmbedded, withDb, withStore } from './support/store.js';

const verb = (admin: Parent) =>
  withDb(admin.command('export'))
    .description('Write the whole state (accounts, keys as hashes, templates, queues, runs, analyses, catalogs) as one JSON snapshot')
    .option('--file <path>', 'write it here (mode 0600, atomically) instead of stdout; `-` for stdout')
    .option('--schema', "print the snapshot format's JSON Schema instead (no database needed)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl admin export --db ci.db --file fixtures.json\n  $ reportctl admin export --db ci.db | jq \'.templates | length\'\n  $ reportctl admin export --schema > snapshot.schema.json',
    );
export type AdminExportOptions = OptionsOf<typeof verb>;

export function registerAdminExport(
  admin: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminExportOptions> = (options) => runAdminExport(options, deps),
): void {
  bindRun(verb(admin), wrap, runF);
}

export async function runAdminExport(options: AdminExportOptions, deps: CliDeps): Promise<void> {
  if (options.schema === true) {
    const { snapshotJsonSchema } = await loadEmbedded();
    return writeData(deps.io.stdout, `${JSON.stringify(snapshotJsonSchema(), null, 2)}\n`);
  }
  const file = options.file;
  let text: string | undefined;
  await withStore(options, deps, (store, _ops, { adminSnapshots }) => {
    const snapshot = adminSnapshots.exportSnapshot(store);
    if (file !== undefined && file !== '-') adminSnapshots.writeSnapshotFile(file, snapshot);
    else text = `${JSON.stringify(snapshot)}\n`;
  });
  if (text !== undefined) await writeData(deps.io.stdout, text);
}
