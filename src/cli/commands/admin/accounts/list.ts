import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { printRows } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminAccountsList(accounts: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(accounts.command('list'))
    .description('List accounts')
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts list --json')
    .action(wrap(async (_o: unknown, command: Command) => runAdminAccountsList(command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminAccountsList(options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store) => {
    const list = store.accounts.list();
    printRows(deps, options, list, list.map((account) => [account.id, account.name, String(account.templateLimit)]));
  });
}
