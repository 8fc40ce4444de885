import { queueRunStatuses, queueRunStatusNotes } from '../../../contract/vocabulary.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { addListOptions, choiceOption } from '../../output/list-options.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { queueRunColumns } from './support/columns.js';
import { printList } from '../../output/list-output.js';

const verb = (parent: Parent) =>
  addListOptions(
    parent
      .command('list')
      .alias('ls')
      .description('List queue runs, newest first')
      .addOption(choiceOption('--status <status>', 'only runs in this state', queueRunStatuses, queueRunStatusNotes)),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl queue-runs list
  $ reportctl queue-runs list --status running --wide
  $ reportctl queue-runs list --all --json > runs.json`,
    );
export type QueueRunsListOptions = OptionsOf<typeof verb>;

export function registerQueueRunsList(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<QueueRunsListOptions> = (options) => runQueueRunsList(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runQueueRunsList(options: QueueRunsListOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  await printList(
    deps,
    options,
    { listing: session.api.queueRuns, query: { status: options.status }, noun: 'queue runs' },
    queueRunColumns(deps, options.wide === true),
  );
}
