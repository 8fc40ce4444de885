import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { printRows, queueRunRow } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (runs: Parent) =>
  withDb(runs.command('cancel'))
    .description('Cancel a pending, claimed or running run')
    .argument('<run-id>')
    .addHelpText('after', '\nExample:\n  $ reportctl admin queue-runs cancel RUN_ID --json');
export type AdminQueueRunsCancelOptions = OptionsOf<typeof verb>;

export function registerAdminQueueRunsCancel(
  runs: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminQueueRunsCancelOptions, [runId: string]> = (options, runId) => runAdminQueueRunsCancel(runId, options, deps),
): void {
  bindRun(verb(runs), wrap, runF);
}

export function runAdminQueueRunsCancel(runId: string, options: AdminQueueRunsCancelOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const run = ops.cancelRun(store, runId);
    printRows(deps, options, run, [queueRunRow(run)]);
  });
}
