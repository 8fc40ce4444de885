import type { Command } from 'commander';
import type { Queue } from '../../../contract/index.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { addListOptions, type ListOptions } from '../../list-options.js';
import { formatTime, type Column } from '../../output.js';
import type { Wrap } from '../../action.js';

export interface QueuesListOptions extends GlobalOptions, ListOptions {}

export function registerQueuesList(parent: Command, deps: CliDeps, wrap: Wrap): void {
  addListOptions(parent.command('list').alias('ls').description("List the account's saved queues, newest first"))
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl queues list
  $ reportctl queues list --wide
  $ reportctl queues list --all --json > queues.json`,
    )
    .action(wrap(async (_o: unknown, command: Command) => runQueuesList(command.optsWithGlobals<QueuesListOptions>(), deps)));
}

export function queueColumns(deps: CliDeps, wide: boolean): Column<Queue>[] {
  const stepsText = (queue: Queue) =>
    [...queue.steps].sort((a, b) => a.order - b.order).map((step) => `${step.lotId}:${step.analysisType}`).join(' → ');
  return [
    { header: 'ID', keep: true, value: (queue) => queue.id, color: (text, _row, style) => style.cyan(text) },
    { header: 'NAME', value: (queue) => queue.name },
    wide
      ? { header: 'STEPS', value: stepsText }
      : { header: 'STEPS', value: (queue) => String(queue.steps.length) },
    { header: 'CREATED', value: (queue) => formatTime(queue.createdAt, deps) },
  ];
}

export async function runQueuesList(options: QueuesListOptions, deps: CliDeps): Promise<void> {
  const { printList } = await import('../../list-output.js');
  const session = await deps.api(options);
  await printList(
    deps,
    session,
    options,
    { listing: session.api.queues, query: {}, noun: 'queues' },
    queueColumns(deps, options.wide === true),
  );
}
