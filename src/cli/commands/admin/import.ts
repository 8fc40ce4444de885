import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { readInputText } from '../../cmdutil/input.js';
import { print } from './support/print.js';
import { adminFailure, loadEmbedded, withDb, withStore } from './support/store.js';

const verb = (admin: Parent) =>
  withDb(admin.command('import'))
    .description('Load a snapshot (`admin export`) into the database, all or nothing')
    .requiredOption('--file <path>', 'the snapshot (`-` for stdin)')
    .option('--replace', 'replace every account and its data (and the catalogs) if the database has any')
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl admin import --db ci.db --file fixtures.json\n  $ reportctl admin import --db ci.db --file fixtures.json --replace\n\nA database that has accounts is refused without --replace. A damaged snapshot, or one of a newer\nformat version, is refused and nothing changes. API keys of the snapshot keep working.',
    );
export type AdminImportOptions = OptionsOf<typeof verb>;

export function registerAdminImport(
  admin: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminImportOptions> = (options) => runAdminImport(options, deps),
): void {
  bindRun(verb(admin), wrap, runF);
}

export async function runAdminImport(options: AdminImportOptions, deps: CliDeps): Promise<void> {
  const file = options.file;
  const embedded = await loadEmbedded();
  // Checked before the database is opened: a bad file leaves no trace, not even a new database.
  let snapshot;
  try {
    const text = await readInputText(file, deps);
    snapshot = embedded.adminSnapshots.parseSnapshotText(text, file === '-' ? 'stdin' : file);
  } catch (error) {
    throw adminFailure(error, embedded);
  }
  await withStore(options, deps, (store, _ops, { adminSnapshots }) => {
    const result = adminSnapshots.importSnapshot(store, snapshot, { replace: options.replace === true, source: file === '-' ? 'stdin' : file });
    print(deps, options, result, `imported ${result.accounts} account${result.accounts === 1 ? '' : 's'}`);
  });
}
