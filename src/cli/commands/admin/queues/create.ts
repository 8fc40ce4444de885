import type { Command } from 'commander';
import type { Wrap } from '../../../action.js';
import type { CliDeps } from '../../../context.js';
import { printRows } from '../shared/print.js';
import { withDb, withStore, type AdminOptions } from '../shared/store.js';

export interface AdminQueuesCreateOptions extends AdminOptions {
  account: string;
  name: string;
  /** `lot:type`, in order. */
  step: string[];
}

export function registerAdminQueuesCreate(queues: Command, deps: CliDeps, wrap: Wrap): void {
  withDb(queues.command('create'))
    .description('Create a saved queue')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'queue name')
    .option('--step <lot:type>', 'a step, in order, repeatable (e.g. lot-7:counting)', (value: string, previous: string[]) => [...previous, value], [])
    .addHelpText('after', '\nExample:\n  $ reportctl admin queues create --account ACC --name "North lots" --step lot-7:counting --step lot-8:replanting')
    .action(wrap(async (_o: unknown, command: Command) => runAdminQueuesCreate(command.optsWithGlobals<AdminQueuesCreateOptions>(), deps)));
}

export function runAdminQueuesCreate(options: AdminQueuesCreateOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const queue = ops.createQueue(store, options.account, options.name, options.step);
    printRows(deps, options, queue, [[queue.id, queue.name, String(queue.steps.length)]]);
  });
}
