import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { print } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (faults: Parent) =>
  withDb(faults.command('list'))
    .description('List faults, oldest first, with the uses they have left')
    .addHelpText('after', "\nExamples:\n  $ reportctl admin faults list\n  $ reportctl admin faults list --json\n\nEach line: id, the fault in serve --fault's notation (xN: uses left), and 'used up' when none are.");
export type AdminFaultsListOptions = OptionsOf<typeof verb>;

export function registerAdminFaultsList(
  faults: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminFaultsListOptions> = (options) => runAdminFaultsList(options, deps),
): void {
  bindRun(verb(faults), wrap, runF);
}

export function runAdminFaultsList(options: AdminFaultsListOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, _ops, { adminFaults }) => {
    const list = store.faults.list();
    const human = list.map((fault) => `${fault.id}\t${adminFaults.faultSpec(fault)}${fault.remaining === 0 ? '\tused up' : ''}`);
    if (options.json || list.length > 0) print(deps, options, list, human.join('\n'));
  });
}
