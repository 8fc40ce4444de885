import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { printRows, queueRunRow } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminQueueRunsCancel(runs: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(runs.command('cancel'))
    .description('Cancel a pending, claimed or running run')
    .argument('<run-id>')
    .addHelpText('after', '\nExample:\n  $ reportctl admin queue-runs cancel RUN_ID --json')
    .action(wrap(async (runId: string, _o: unknown, command: Command) => runAdminQueueRunsCancel(runId, command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminQueueRunsCancel(runId: string, options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const run = ops.cancelRun(store, runId);
    printRows(deps, options, run, [queueRunRow(run)]);
  });
}
