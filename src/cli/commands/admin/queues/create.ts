import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { printRows } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const verb = (queues: Parent) =>
  withDb(queues.command('create'))
    .description('Create a saved queue')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'queue name')
    .option('--step <lot:type>', 'a step, in order, repeatable (e.g. lot-7:counting)', (value: string, previous: string[]) => [...previous, value], [])
    .addHelpText('after', '\nExample:\n  $ reportctl admin queues create --account ACC --name "North lots" --step lot-7:counting --step lot-8:replanting');
export type AdminQueuesCreateOptions = OptionsOf<typeof verb>;

export function registerAdminQueuesCreate(
  queues: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminQueuesCreateOptions> = (options) => runAdminQueuesCreate(options, deps),
): void {
  bindRun(verb(queues), wrap, runF);
}

export function runAdminQueuesCreate(options: AdminQueuesCreateOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, ops) => {
    const queue = ops.createQueue(store, options.account, options.name, options.step);
    printRows(deps, options, queue, [[queue.id, queue.name, String(queue.steps.length)]]);
  });
}
