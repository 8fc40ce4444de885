import type { Command } from 'commander';
import { queueRunStatuses } from '../../../contract/vocabulary.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { addListOptions, choiceOption, type ListOptions } from '../../list-options.js';
import type { Wrap } from '../../program.js';
import { queueRunColumns } from './shared/columns.js';

export interface QueueRunsListOptions extends GlobalOptions, ListOptions {
  status?: string;
}

export function registerQueueRunsList(parent: Command, deps: CliDeps, wrap: Wrap): void {
  addListOptions(
    parent
      .command('list')
      .alias('ls')
      .description('List queue runs, newest first')
      .addOption(choiceOption('--status <status>', 'only runs in this state', queueRunStatuses)),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl queue-runs list
  $ reportctl queue-runs list --status running --wide
  $ reportctl queue-runs list --all --json > runs.json`,
    )
    .action(wrap(async (_o: unknown, command: Command) => runQueueRunsList(command.optsWithGlobals<QueueRunsListOptions>(), deps)));
}

export async function runQueueRunsList(options: QueueRunsListOptions, deps: CliDeps): Promise<void> {
  const [{ printList }, { queueRunSchema }] = await Promise.all([
    import('../../list-output.js'),
    import('../../../contract/index.js'),
  ]);
  const session = await deps.api(options);
  await printList(
    deps,
    session,
    options,
    { path: '/api/v2/queue-runs', itemSchema: queueRunSchema, query: { status: options.status }, fetchPage: (q) => session.api.queueRuns.list(q) },
    queueRunColumns(deps, options.wide === true),
  );
}
