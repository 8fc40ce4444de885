import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (accounts: Parent) =>
  withDb(accounts.command('list'))
    .description('List accounts')
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts list --json');
export type AdminAccountsListOptions = OptionsOf<typeof verb>;

export function registerAdminAccountsList(
  accounts: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminAccountsListOptions> = (options) => runAdminAccountsList(options, deps),
): void {
  bindRun(verb(accounts), wrap, runF);
}

export function runAdminAccountsList(options: AdminAccountsListOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store) => {
    const list = store.accounts.list();
    printRows(deps, options, list, list.map((account) => [account.id, account.name, String(account.templateLimit)]));
  });
}
