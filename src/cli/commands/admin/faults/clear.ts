import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { writeLine } from '../../../io.js';
import { print } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminFaultsClear(faults: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(faults.command('clear'))
    .description('Remove every fault; a running server stops applying them from its next request')
    .addHelpText('after', '\nExample:\n  $ reportctl admin faults clear')
    .action(wrap(async (_o: unknown, command: Command) => runAdminFaultsClear(command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminFaultsClear(options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store) => {
    const removed = store.faults.clear();
    if (options.json) print(deps, options, { removed }, '');
    else writeLine(deps.io.stderr, `removed ${removed} fault${removed === 1 ? '' : 's'}`);
  });
}
