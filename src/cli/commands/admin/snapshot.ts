import type { Command } from 'commander';
import type { CliDeps } from '../../context.js';
import { UsageError } from '../../errors.js';
import { canPrompt, readAll, writeData, writeLine } from '../../io.js';
import type { Wrap } from '../../program.js';
import { adminFailure, loadEmbedded, opts, print, withDb, withStore, type AdminOptions } from './shared/store.js';

/** `admin export`, `admin import`, `admin reset`: the whole state saved, loaded, emptied. */
export function registerAdminSnapshots(admin: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(admin.command('export'))
    .description('Write the whole state (accounts, keys as hashes, templates, queues, runs, analyses, catalogs) as one JSON snapshot')
    .option('--file <path>', 'write it here (mode 0600, atomically) instead of stdout; `-` for stdout')
    .option('--schema', "print the snapshot format's JSON Schema instead (no database needed)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl admin export --db ci.db --file fixtures.json\n  $ reportctl admin export --db ci.db | jq \'.templates | length\'\n  $ reportctl admin export --schema > snapshot.schema.json',
    )
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        if (options.schema === true) {
          const { snapshotJsonSchema } = await loadEmbedded();
          return writeData(deps.io.stdout, `${JSON.stringify(snapshotJsonSchema(), null, 2)}\n`);
        }
        const file = options.file as string | undefined;
        let text: string | undefined;
        await withStore(options, deps, (store, _ops, { adminSnapshots }) => {
          const snapshot = adminSnapshots.exportSnapshot(store);
          if (file !== undefined && file !== '-') adminSnapshots.writeSnapshotFile(file, snapshot);
          else text = `${JSON.stringify(snapshot)}\n`;
        });
        if (text !== undefined) await writeData(deps.io.stdout, text);
      }),
    );

  withDb(admin.command('import'))
    .description('Load a snapshot (`admin export`) into the database, all or nothing')
    .requiredOption('--file <path>', 'the snapshot (`-` for stdin)')
    .option('--replace', 'replace every account and its data (and the catalogs) if the database has any')
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl admin import --db ci.db --file fixtures.json\n  $ reportctl admin import --db ci.db --file fixtures.json --replace\n\nA database that has accounts is refused without --replace. A damaged snapshot, or one of a newer\nformat version, is refused and nothing changes. API keys of the snapshot keep working.',
    )
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        const file = options.file as string;
        const embedded = await loadEmbedded();
        // Checked before the database is opened: a bad file leaves no trace, not even a new database.
        let snapshot;
        try {
          snapshot =
            file === '-'
              ? embedded.adminSnapshots.parseSnapshotText(await readAll(deps.io.stdin), 'stdin')
              : embedded.adminSnapshots.readSnapshotFile(file);
        } catch (error) {
          throw adminFailure(error, embedded);
        }
        await withStore(options, deps, (store, _ops, { adminSnapshots }) => {
          const result = adminSnapshots.importSnapshot(store, snapshot, { replace: options.replace === true, source: file === '-' ? 'stdin' : file });
          print(deps, options, result, `imported ${result.accounts} account${result.accounts === 1 ? '' : 's'}`);
        });
      }),
    );

  withDb(admin.command('reset'))
    .description('Remove every account and all its data, keeping the catalogs (asks first on a terminal)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExample:\n  $ reportctl admin reset --db ci.db --yes\n\nA running server sees the empty database on its next request. Faults stay (`admin faults clear`).')
    .action(wrap(async (_o: unknown, command: Command) => runAdminReset(opts(command), deps)));
}

export async function runAdminReset(options: AdminOptions & { yes?: unknown }, deps: CliDeps): Promise<void> {
  if (options.yes !== true) {
    if (!canPrompt(deps.io, deps.env, options.input === false)) {
      throw new UsageError('refusing to remove every account without confirmation', 'pass --yes to reset without a prompt');
    }
    const sure = await deps.prompter.confirm({
      message: 'Remove every account and all its data (templates, queues, runs, analyses, keys)? This cannot be undone.',
      default: false,
    });
    if (!sure) {
      writeLine(deps.io.stderr, 'nothing removed');
      return;
    }
  }
  await withStore(options, deps, (store, _ops, { adminSnapshots }) => {
    const result = adminSnapshots.resetDatabase(store);
    print(deps, options, result, `removed ${result.accounts} account${result.accounts === 1 ? '' : 's'} and their data`);
  });
}
