import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { UsageError } from '../../../cmdutil/errors.js';
import { integerOption } from '../../../cmdutil/option-parsers.js';
import { printRows, queueRunRow } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const hectaresOption = (text: string): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError('--estimated-ha: expected a number of hectares');
  return value;
};

const verb = (runs: Parent) =>
  withDb(runs.command('enqueue'))
    .description('Enqueue a run of a saved queue')
    .addHelpText('after', '\nExamples:\n  $ reportctl admin queue-runs enqueue --queue QUEUE_ID --json\n  $ reportctl admin queue-runs enqueue --queue QUEUE_ID --fail-at-step 2')
    .requiredOption('--queue <id>', 'queue id')
    .option('--name <name>', 'run name')
    .option('--estimated-ha <ha>', 'estimated hectares', hectaresOption)
    .option('--fail-at-step <n>', 'make step N fail when it runs', integerOption(1));
export type AdminQueueRunsEnqueueOptions = OptionsOf<typeof verb>;

export function registerAdminQueueRunsEnqueue(
  runs: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminQueueRunsEnqueueOptions> = (options) => runAdminQueueRunsEnqueue(options, deps),
): void {
  bindRun(verb(runs), wrap, runF);
}

export function runAdminQueueRunsEnqueue(options: AdminQueueRunsEnqueueOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const run = ops.enqueueRun(store, options.queue, {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.estimatedHa !== undefined ? { estimatedHa: options.estimatedHa } : {}),
      ...(options.failAtStep !== undefined ? { failAtStep: options.failAtStep } : {}),
    });
    printRows(deps, options, run, [queueRunRow(run)]);
  });
}
