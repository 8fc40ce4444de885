import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { printRows, queueRunRow } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (runs: Parent) =>
  withDb(runs.command('advance'))
    .description('Move a run one deterministic step along its life cycle')
    .argument('<run-id>')
    .addHelpText('after', '\nExample:\n  $ reportctl admin queue-runs advance RUN_ID --json');
export type AdminQueueRunsAdvanceOptions = OptionsOf<typeof verb>;

export function registerAdminQueueRunsAdvance(
  runs: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminQueueRunsAdvanceOptions, [runId: string]> = (options, runId) => runAdminQueueRunsAdvance(runId, options, deps),
): void {
  bindRun(verb(runs), wrap, runF);
}

export function runAdminQueueRunsAdvance(runId: string, options: AdminQueueRunsAdvanceOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const run = ops.advanceRun(store, runId);
    printRows(deps, options, run, [queueRunRow(run)]);
  });
}
