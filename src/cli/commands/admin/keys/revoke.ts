import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (keys: Parent) =>
  withDb(keys.command('revoke'))
    .description('Revoke a key (refused from the very next request)')
    .addHelpText('after', '\nExample:\n  $ reportctl admin keys revoke rctl_…')
    .argument('<key>', 'the key itself');
export type AdminKeysRevokeOptions = OptionsOf<typeof verb>;

export function registerAdminKeysRevoke(
  keys: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminKeysRevokeOptions, [key: string]> = (options, key) => runAdminKeysRevoke(key, options, deps),
): void {
  bindRun(verb(keys), wrap, runF);
}

export function runAdminKeysRevoke(key: string, options: AdminKeysRevokeOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    ops.revokeKey(store, key);
    if (options.json) printRows(deps, options, { revoked: true }, []);
  });
}
