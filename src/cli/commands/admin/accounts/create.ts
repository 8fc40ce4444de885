import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { integerOption } from '../../../cmdutil/option-parsers.js';
import { writeLine } from '../../../iostreams/io.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (accounts: Parent) =>
  withDb(accounts.command('create'))
    .description('Create an account and print its owner key (shown once)')
    .option('--name <name>', 'account name')
    .option('--template-limit <n>', 'templates allowed per account', integerOption(0), 100)
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts create --name "Agro Norte" --template-limit 50 --json');
export type AdminAccountsCreateOptions = OptionsOf<typeof verb>;

export function registerAdminAccountsCreate(
  accounts: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminAccountsCreateOptions> = (options) => runAdminAccountsCreate(options, deps),
): void {
  bindRun(verb(accounts), wrap, runF);
}

export function runAdminAccountsCreate(options: AdminAccountsCreateOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const issued = ops.createAccount(store, {
      ...(options.name !== undefined ? { name: options.name } : {}),
      templateLimit: options.templateLimit,
    });
    printRows(deps, options, issued, [[issued.accountId, issued.userId], [issued.apiKey]]);
    if (!options.json) writeLine(deps.io.stderr, `created account ${issued.accountId}; its owner key (line 2, shown once) goes in the apiKey header`);
  });
}
