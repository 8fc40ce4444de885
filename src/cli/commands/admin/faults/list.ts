import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { print } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminFaultsList(faults: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(faults.command('list'))
    .description('List faults, oldest first, with the uses they have left')
    .addHelpText('after', "\nExamples:\n  $ reportctl admin faults list\n  $ reportctl admin faults list --json\n\nEach line: id, the fault in serve --fault's notation (xN: uses left), and 'used up' when none are.")
    .action(wrap(async (_o: unknown, command: Command) => runAdminFaultsList(command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminFaultsList(options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, _ops, { adminFaults }) => {
    const list = store.faults.list();
    const human = list.map((fault) => `${fault.id}\t${adminFaults.faultSpec(fault)}${fault.remaining === 0 ? '\tused up' : ''}`);
    if (options.json || list.length > 0) print(deps, options, list, human.join('\n'));
  });
}
