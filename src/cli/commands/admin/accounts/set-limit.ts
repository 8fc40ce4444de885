import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { integerOption } from '../../../parse.js';
import { printRows } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminAccountsSetLimit(accounts: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(accounts.command('set-limit'))
    .description("Change an account's template limit")
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts set-limit ACCOUNT_ID 500')
    .argument('<account-id>')
    .argument('<limit>', 'templates allowed', integerOption(0))
    .action(
      wrap(async (accountId: string, limit: number, _o: unknown, command: Command) =>
        runAdminAccountsSetLimit(accountId, limit, command.optsWithGlobals<AdminOptions>(), deps),
      ),
    );
}

export function runAdminAccountsSetLimit(accountId: string, templateLimit: number, options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    ops.setTemplateLimit(store, accountId, templateLimit);
    if (options.json) printRows(deps, options, { accountId, templateLimit }, []);
  });
}
