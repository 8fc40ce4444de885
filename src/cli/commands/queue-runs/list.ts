import type { Command } from 'commander';
import { queueRunStatuses, queueRunStatusNotes } from '../../../contract/vocabulary.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { addListOptions, choiceOption, type ListOptions } from '../../list-options.js';
import type { Wrap } from '../../action.js';
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
      .addOption(choiceOption('--status <status>', 'only runs in this state', queueRunStatuses, queueRunStatusNotes)),
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
  const { printList } = await import('../../list-output.js');
  const session = await deps.api(options);
  await printList(
    deps,
    session,
    options,
    { listing: session.api.queueRuns, query: { status: options.status }, noun: 'queue runs' },
    queueRunColumns(deps, options.wide === true),
  );
}
