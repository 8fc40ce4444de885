import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { printRows, queueRunRow } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export function registerAdminQueueRunsAdvance(runs: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(runs.command('advance'))
    .description('Move a run one deterministic step along its life cycle')
    .argument('<run-id>')
    .addHelpText('after', '\nExample:\n  $ reportctl admin queue-runs advance RUN_ID --json')
    .action(wrap(async (runId: string, _o: unknown, command: Command) => runAdminQueueRunsAdvance(runId, command.optsWithGlobals<AdminOptions>(), deps)));
}

export function runAdminQueueRunsAdvance(runId: string, options: AdminOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const run = ops.advanceRun(store, runId);
    printRows(deps, options, run, [queueRunRow(run)]);
  });
}
