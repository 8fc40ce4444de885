import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { printRows } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminKeysRevoke(keys: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(keys.command('revoke'))
    .description('Revoke a key (refused from the very next request)')
    .addHelpText('after', '\nExample:\n  $ reportctl admin keys revoke rctl_…')
    .argument('<key>', 'the key itself')
    .action(wrap(async (key: string, _o: unknown, command: Command) => runAdminKeysRevoke(key, command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminKeysRevoke(key: string, options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    ops.revokeKey(store, key);
    if (options.json) printRows(deps, options, { revoked: true }, []);
  });
}
