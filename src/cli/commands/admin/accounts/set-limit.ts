import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { integerOption } from '../../../cmdutil/option-parsers.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (accounts: Parent) =>
  withDb(accounts.command('set-limit'))
    .description("Change an account's template limit")
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts set-limit ACCOUNT_ID 500')
    .argument('<account-id>')
    .argument('<limit>', 'templates allowed', integerOption(0));
export type AdminAccountsSetLimitOptions = OptionsOf<typeof verb>;

export function registerAdminAccountsSetLimit(
  accounts: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminAccountsSetLimitOptions, [accountId: string, limit: number]> = (options, accountId, limit) => runAdminAccountsSetLimit(accountId, limit, options, deps),
): void {
  bindRun(verb(accounts), wrap, runF);
}

export function runAdminAccountsSetLimit(accountId: string, templateLimit: number, options: AdminAccountsSetLimitOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    ops.setTemplateLimit(store, accountId, templateLimit);
    if (options.json) printRows(deps, options, { accountId, templateLimit }, []);
  });
}
