import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode } from '../../cmdutil/errors.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { stepColumns, stepsDone } from './support/columns.js';
import { findQueueRun } from '../../../client/api.js';
import { printJson, printTable, printFields, formatTime, statusColor } from '../../output/output.js';
import { writeLine } from '../../iostreams/io.js';
import { resolveQueueRunId } from '../../session/resolve.js';

const verb = (parent: Parent) =>
  parent
    .command('get')
    .aliases(['show', 'view'])
    .description('Show one queue run with its steps (the run as the service returns it with --json)')
    .argument('<id>', 'queue run id, a unique prefix of it (6+ characters) or the exact name')
    .addHelpText('after', '\nExamples:\n  $ reportctl queue-runs get RUN_ID\n  $ reportctl queue-runs get RUN_ID --json | jq .status');
export type QueueRunsGetOptions = OptionsOf<typeof verb>;

export function registerQueueRunsGet(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<QueueRunsGetOptions, [id: string]> = (options, id) => runQueueRunsGet(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runQueueRunsGet(reference: string, options: QueueRunsGetOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const id = await resolveQueueRunId(session.api, reference, deps.signal);
  // The service has no endpoint for one run: it is looked up in the list.
  const found = await findQueueRun(session.api, id, 1, deps.signal);
  deps.io.progress.stop();
  if (!found) throw new CliError(`queue run ${id} not found`, ExitCode.notFound, 'see `reportctl queue-runs list`');
  const { run } = found;
  if (options.json) return printJson(deps, run);
  const style = await deps.io.style(options.color);
  const rows: Parameters<typeof printFields>[2] = [
    ['id', run.id],
    ['name', run.name],
    ['queue', run.queueId],
    ['status', [[run.status, statusColor(run.status, style)]]],
    ['steps', `${stepsDone(run)}/${run.steps.length} completed`],
    ['estimated', `${run.estimatedHa} ha`],
    ['created', formatTime(run.createdAt, deps)],
    ['started', formatTime(run.startedAt, deps)],
    ['finished', formatTime(run.finishedAt, deps)],
  ];
  printFields(deps, style, rows);
  writeLine(deps.io.stdout);
  await printTable(deps, style, stepColumns(deps), [...run.steps].sort((a, b) => a.order - b.order));
}
