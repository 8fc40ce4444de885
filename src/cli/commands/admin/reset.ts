import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { UsageError } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { print } from './support/print.js';
import { withDb, withStore } from './support/store.js';

const verb = (admin: Parent) =>
  withDb(admin.command('reset'))
    .description('Remove every account and all its data, keeping the catalogs (asks first on a terminal)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExample:\n  $ reportctl admin reset --db ci.db --yes\n\nA running server sees the empty database on its next request. Faults stay (`admin faults clear`).');
export type AdminResetOptions = OptionsOf<typeof verb>;

export function registerAdminReset(
  admin: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminResetOptions> = (options) => runAdminReset(options, deps),
): void {
  bindRun(verb(admin), wrap, runF);
}

export async function runAdminReset(options: AdminResetOptions, deps: CliDeps): Promise<void> {
  if (options.yes !== true) {
    if (!deps.io.canPrompt(options.input === false)) {
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
