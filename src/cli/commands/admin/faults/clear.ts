import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { writeLine } from '../../../iostreams/io.js';
import { print } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (faults: Parent) =>
  withDb(faults.command('clear'))
    .description('Remove every fault; a running server stops applying them from its next request')
    .addHelpText('after', '\nExample:\n  $ reportctl admin faults clear');
export type AdminFaultsClearOptions = OptionsOf<typeof verb>;

export function registerAdminFaultsClear(
  faults: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminFaultsClearOptions> = (options) => runAdminFaultsClear(options, deps),
): void {
  bindRun(verb(faults), wrap, runF);
}

export function runAdminFaultsClear(options: AdminFaultsClearOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store) => {
    const removed = store.faults.clear();
    if (options.json) print(deps, options, { removed }, '');
    else writeLine(deps.io.stderr, `removed ${removed} fault${removed === 1 ? '' : 's'}`);
  });
}
