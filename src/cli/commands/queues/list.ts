import type { Queue } from '../../../contract/index.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { addListOptions } from '../../output/list-options.js';
import { formatTime, idColumn, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { printList } from '../../output/list-output.js';

const verb = (parent: Parent) =>
  addListOptions(parent.command('list').alias('ls').description("List the account's saved queues, newest first"))
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl queues list
  $ reportctl queues list --wide
  $ reportctl queues list --all --json > queues.json`,
    );
export type QueuesListOptions = OptionsOf<typeof verb>;

export function registerQueuesList(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<QueuesListOptions> = (options) => runQueuesList(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export function queueColumns(deps: CliDeps, wide: boolean): Column<Queue>[] {
  const stepsText = (queue: Queue) =>
    [...queue.steps].sort((a, b) => a.order - b.order).map((step) => `${step.lotId}:${step.analysisType}`).join(' → ');
  return [
    idColumn(deps, wide, (queue) => queue.id),
    { header: 'NAME', value: (queue) => queue.name },
    wide
      ? { header: 'STEPS', value: stepsText }
      : { header: 'STEPS', value: (queue) => String(queue.steps.length) },
    { header: 'CREATED', value: (queue) => formatTime(queue.createdAt, deps) },
  ];
}

export async function runQueuesList(options: QueuesListOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  await printList(
    deps,
    options,
    { listing: session.api.queues, query: {}, noun: 'queues' },
    queueColumns(deps, options.wide === true),
  );
}
