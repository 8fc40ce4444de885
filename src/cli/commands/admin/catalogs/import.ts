import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { readJsonInput } from '../../../cmdutil/input.js';
import { print } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (catalogs: Parent) =>
  withDb(catalogs.command('import'))
    .description('Replace report types, statistics and/or vegetation-index defaults from a JSON file')
    .addHelpText('after', '\nExample:\n  $ reportctl admin catalogs import --file catalogs.json\n\nThe file holds any of { "reportTypes", "statistics", "vegetationIndexDefaults" }, each in the API\'s own shape.')
    .requiredOption('--file <path>', 'JSON with any of reportTypes, statistics, vegetationIndexDefaults (`-` for stdin)');
export type AdminCatalogsImportOptions = OptionsOf<typeof verb>;

export function registerAdminCatalogsImport(
  catalogs: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminCatalogsImportOptions> = (options) => runAdminCatalogsImport(options, deps),
): void {
  bindRun(verb(catalogs), wrap, runF);
}

export async function runAdminCatalogsImport(options: AdminCatalogsImportOptions, deps: CliDeps): Promise<void> {
  const document = await readJsonInput(options.file, deps);
  return withStore(options, deps, (store, ops) => {
    const imported = ops.importCatalogs(store, document);
    print(deps, options, { imported }, `imported ${imported.join(', ')}`);
  });
}
