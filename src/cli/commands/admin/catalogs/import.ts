import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { readJsonInput } from '../../../input.js';
import { print } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export interface AdminCatalogsImportOptions extends AdminOptions {
  /** JSON with any of the catalogs, `-` for stdin. */
  file: string;
}

export function registerAdminCatalogsImport(catalogs: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(catalogs.command('import'))
    .description('Replace report types, statistics and/or vegetation-index defaults from a JSON file')
    .addHelpText('after', '\nExample:\n  $ reportctl admin catalogs import --file catalogs.json\n\nThe file holds any of { "reportTypes", "statistics", "vegetationIndexDefaults" }, each in the API\'s own shape.')
    .requiredOption('--file <path>', 'JSON with any of reportTypes, statistics, vegetationIndexDefaults (`-` for stdin)')
    .action(wrap(async (_o: unknown, command: Command) => runAdminCatalogsImport(command.optsWithGlobals<AdminCatalogsImportOptions>(), deps)));
}

export async function runAdminCatalogsImport(options: AdminCatalogsImportOptions, deps: CliDeps): Promise<void> {
  const document = await readJsonInput(options.file, deps);
  return withStore(options, deps, (store, ops) => {
    const imported = ops.importCatalogs(store, document);
    print(deps, options, { imported }, `imported ${imported.join(', ')}`);
  });
}
