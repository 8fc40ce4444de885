import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerQueuesList } from './list.js';

export function registerQueuesCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const queues = program.command('queues').description('Saved queues of analyses across lots (read-only)');
  registerQueuesList(queues, deps, wrap);
}
