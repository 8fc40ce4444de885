import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { readJsonInput } from '../../cmdutil/input.js';
import { printRows } from './support/print.js';
import { withDb, withStore } from './support/store.js';

const verb = (admin: Parent) =>
  withDb(admin.command('seed'))
    .description('Load fixtures (queues, runs, analyses) into an account, all or nothing')
    .addHelpText('after', '\nExample:\n  $ reportctl admin seed --account ACCOUNT_ID --file fixtures.json\n\nFixtures: { "queues": [{ "name", "steps": [{ "lotId", "analysisType" }] }],\n  "runs": [{ "queue": 0, "name"?, "estimatedHa"?, "failAtStep"?, "advance"?: N, "cancel"?: true }],\n  "analyses": [{ "lotId", "analysisType", "status" }] }')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--file <path>', 'fixtures JSON (`-` for stdin)');
export type AdminSeedOptions = OptionsOf<typeof verb>;

export function registerAdminSeed(
  admin: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminSeedOptions> = (options) => runAdminSeed(options, deps),
): void {
  bindRun(verb(admin), wrap, runF);
}

export async function runAdminSeed(options: AdminSeedOptions, deps: CliDeps): Promise<void> {
  const document = await readJsonInput(options.file, deps);
  return withStore(options, deps, (store, ops) => {
    const result = ops.seedFixtures(store, options.account, document);
    printRows(deps, options, result, [
      ...result.queues.map((queue) => [queue.id, 'queue', queue.name]),
      ...result.runs.map((run) => [run.id, 'queue-run', run.status]),
      ...result.analyses.map((analysis) => [analysis.id, 'analysis', analysis.status]),
    ]);
  });
}
