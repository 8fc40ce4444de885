import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerQueueRunsGet } from './get.js';
import { registerQueueRunsList } from './list.js';
import { registerQueueRunsWatch } from './watch.js';

export function registerQueueRunsCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const queueRuns = program.command('queue-runs').description('Runs of saved queues, with per-step status');
  registerQueueRunsList(queueRuns, deps, wrap);
  registerQueueRunsGet(queueRuns, deps, wrap);
  registerQueueRunsWatch(queueRuns, deps, wrap);
}
