import type { Command } from 'commander';
import type { CliDeps } from '../../context.js';
import type { Wrap } from '../../action.js';
import { registerQueuesList } from './list.js';

export function registerQueuesCommands(program: Command, deps: CliDeps, wrap: Wrap): void {
  const queues = program.command('queues').description('Saved queues of analyses across lots (read-only)');
  registerQueuesList(queues, deps, wrap);
}
