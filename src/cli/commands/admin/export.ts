import type { Command } from 'commander';
import type { Wrap } from '../../action.js';
import type { CliDeps } from '../../context.js';
import { writeData } from '../../io.js';
import { loadEmbedded, withDb, withStore, type AdminOptions } from './shared/store.js';

export interface AdminExportOptions extends AdminOptions {
  /** Written atomically with mode 0600; `-` or none for stdout. */
  file?: string;
  schema?: boolean;
}

export function registerAdminExport(admin: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(admin.command('export'))
    .description('Write the whole state (accounts, keys as hashes, templates, queues, runs, analyses, catalogs) as one JSON snapshot')
    .option('--file <path>', 'write it here (mode 0600, atomically) instead of stdout; `-` for stdout')
    .option('--schema', "print the snapshot format's JSON Schema instead (no database needed)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl admin export --db ci.db --file fixtures.json\n  $ reportctl admin export --db ci.db | jq \'.templates | length\'\n  $ reportctl admin export --schema > snapshot.schema.json',
    )
    .action(wrap(async (_o: unknown, command: Command) => runAdminExport(command.optsWithGlobals<AdminExportOptions>(), deps)));
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
