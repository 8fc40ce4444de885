import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { writeLine } from '../../../iostreams/io.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (keys: Parent) =>
  withDb(keys.command('create'))
    .description("Create a key for an account's owner, or for a new sub-user")
    .addHelpText('after', '\nExamples:\n  $ reportctl admin keys create --account ACCOUNT_ID\n  $ reportctl admin keys create --account ACCOUNT_ID --sub-user field-technician --json')
    .requiredOption('--account <id>', 'account id')
    .option('--sub-user <name>', 'create a sub-user with this name and give the key to it');
export type AdminKeysCreateOptions = OptionsOf<typeof verb>;

export function registerAdminKeysCreate(
  keys: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminKeysCreateOptions> = (options) => runAdminKeysCreate(options, deps),
): void {
  bindRun(verb(keys), wrap, runF);
}

export function runAdminKeysCreate(options: AdminKeysCreateOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const issued = ops.createKey(store, options.account, options.subUser);
    printRows(deps, options, issued, [[issued.userId, issued.accountId], [issued.apiKey]]);
    if (!options.json) writeLine(deps.io.stderr, `created user ${issued.userId}; its key (line 2, shown once) goes in the apiKey header`);
  });
}
