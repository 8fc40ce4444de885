import type { Command } from 'commander';
import type { CliDeps } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readJsonInput } from '../../input.js';
import { integerOption } from '../../parse.js';
import type { Wrap } from '../../action.js';
import { registerAdminFaults } from './faults.js';
import { opts, print, withDb, withStore } from './shared/store.js';
import { registerAdminSnapshots } from './snapshot.js';

const runSummary = (run: { id: string; status: string; steps: { order: number; status: string }[] }) =>
  `${run.id} ${run.status} ${run.steps.map((step) => `${step.order}:${step.status}`).join(' ')}`;

export function registerAdmin(program: Command, deps: CliDeps, wrap: Wrap): void {
  const admin = program
    .command('admin')
    .description('Manage the embedded service database')
    .addHelpText('after', '\nEvery admin command works on the database file directly, with or without a running server.');

  const accounts = admin.command('accounts').description('Accounts (an owner and any number of sub-users)');
  withDb(accounts.command('create'))
    .description('Create an account and print its owner key (shown once)')
    .option('--name <name>', 'account name')
    .option('--template-limit <n>', 'templates allowed per account', integerOption(0), 100)
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts create --name "Agro Norte" --template-limit 50 --json')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, ops) => {
          const issued = ops.createAccount(store, {
            ...(typeof options.name === 'string' ? { name: options.name } : {}),
            templateLimit: options.templateLimit as number,
          });
          print(deps, options, issued, `account ${issued.accountId}\nowner key: ${issued.apiKey}`);
        });
      }),
    );
  withDb(accounts.command('list'))
    .description('List accounts')
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts list --json')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store) => {
          const list = store.accounts.list();
          print(deps, options, list, list.map((account) => `${account.id} ${account.name} limit=${account.templateLimit}`).join('\n'));
        });
      }),
    );
  withDb(accounts.command('set-limit'))
    .description("Change an account's template limit")
    .addHelpText('after', '\nExample:\n  $ reportctl admin accounts set-limit ACCOUNT_ID 500')
    .argument('<account-id>')
    .argument('<limit>', 'templates allowed', integerOption(0))
    .action(
      wrap(async (accountId: string, limit: number, _o: unknown, command: Command) =>
        withStore(opts(command), deps, (store, ops) => ops.setTemplateLimit(store, accountId, limit)),
      ),
    );

  const keys = admin.command('keys').description('API keys');
  withDb(keys.command('create'))
    .description("Create a key for an account's owner, or for a new sub-user")
    .addHelpText('after', '\nExamples:\n  $ reportctl admin keys create --account ACCOUNT_ID\n  $ reportctl admin keys create --account ACCOUNT_ID --sub-user field-technician --json')
    .requiredOption('--account <id>', 'account id')
    .option('--sub-user <name>', 'create a sub-user with this name and give the key to it')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, ops) => {
          const issued = ops.createKey(store, options.account as string, options.subUser as string | undefined);
          print(deps, options, issued, `user ${issued.userId}\nkey: ${issued.apiKey}`);
        });
      }),
    );
  withDb(keys.command('revoke'))
    .description('Revoke a key (refused from the very next request)')
    .addHelpText('after', '\nExample:\n  $ reportctl admin keys revoke rctl_…')
    .argument('<key>', 'the key itself')
    .action(
      wrap(async (key: string, _o: unknown, command: Command) =>
        withStore(opts(command), deps, (store, ops) => ops.revokeKey(store, key)),
      ),
    );

  const queues = admin.command('queues').description('Saved queues (outside the API)');
  withDb(queues.command('create'))
    .description('Create a saved queue')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'queue name')
    .option('--step <lot:type>', 'a step, in order, repeatable (e.g. lot-7:counting)', (value: string, previous: string[]) => [...previous, value], [])
    .addHelpText('after', '\nExample:\n  $ reportctl admin queues create --account ACC --name "North lots" --step lot-7:counting --step lot-8:replanting')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, ops) => {
          const queue = ops.createQueue(store, options.account as string, options.name as string, options.step as string[]);
          print(deps, options, queue, `queue ${queue.id} (${queue.steps.length} steps)`);
        });
      }),
    );

  const runs = admin.command('queue-runs').description('Drive queue runs through their life cycle');
  withDb(runs.command('enqueue'))
    .description('Enqueue a run of a saved queue')
    .addHelpText('after', '\nExamples:\n  $ reportctl admin queue-runs enqueue --queue QUEUE_ID --json\n  $ reportctl admin queue-runs enqueue --queue QUEUE_ID --fail-at-step 2')
    .requiredOption('--queue <id>', 'queue id')
    .option('--name <name>', 'run name')
    .option('--estimated-ha <ha>', 'estimated hectares', (text: string) => {
      const value = Number(text);
      if (!Number.isFinite(value) || value < 0) throw new UsageError('--estimated-ha: expected a number of hectares');
      return value;
    })
    .option('--fail-at-step <n>', 'make step N fail when it runs', integerOption(1))
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, ops) => {
          const run = ops.enqueueRun(store, options.queue as string, {
            ...(options.name !== undefined ? { name: options.name as string } : {}),
            ...(options.estimatedHa !== undefined ? { estimatedHa: options.estimatedHa as number } : {}),
            ...(options.failAtStep !== undefined ? { failAtStep: options.failAtStep as number } : {}),
          });
          print(deps, options, run, runSummary(run));
        });
      }),
    );
  for (const [verb, description] of [
    ['advance', 'Move a run one deterministic step along its life cycle'],
    ['cancel', 'Cancel a pending, claimed or running run'],
  ] as const) {
    withDb(runs.command(verb))
      .description(description)
      .argument('<run-id>')
      .addHelpText('after', `\nExample:\n  $ reportctl admin queue-runs ${verb} RUN_ID --json`)
      .action(
        wrap(async (runId: string, _o: unknown, command: Command) => {
          const options = opts(command);
          return withStore(options, deps, (store, ops) => {
            const run = verb === 'advance' ? ops.advanceRun(store, runId) : ops.cancelRun(store, runId);
            print(deps, options, run, runSummary(run));
          });
        }),
      );
  }

  withDb(admin.command('seed'))
    .description('Load fixtures (queues, runs, analyses) into an account, all or nothing')
    .addHelpText('after', '\nExample:\n  $ reportctl admin seed --account ACCOUNT_ID --file fixtures.json\n\nFixtures: { "queues": [{ "name", "steps": [{ "lotId", "analysisType" }] }],\n  "runs": [{ "queue": 0, "name"?, "estimatedHa"?, "failAtStep"?, "advance"?: N, "cancel"?: true }],\n  "analyses": [{ "lotId", "analysisType", "status" }] }')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--file <path>', 'fixtures JSON (`-` for stdin)')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        const document = await readJsonInput(options.file as string, deps);
        return withStore(options, deps, (store, ops) => {
          const result = ops.seedFixtures(store, options.account as string, document);
          print(deps, options, result, 'fixtures loaded');
        });
      }),
    );

  const catalogs = admin.command('catalogs').description("The platform administrator's catalogs");
  withDb(catalogs.command('import'))
    .description('Replace report types, statistics and/or vegetation-index defaults from a JSON file')
    .addHelpText('after', '\nExample:\n  $ reportctl admin catalogs import --file catalogs.json\n\nThe file holds any of { "reportTypes", "statistics", "vegetationIndexDefaults" }, each in the API\'s own shape.')
    .requiredOption('--file <path>', 'JSON with any of reportTypes, statistics, vegetationIndexDefaults (`-` for stdin)')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        const document = await readJsonInput(options.file as string, deps);
        return withStore(options, deps, (store, ops) => {
          const imported = ops.importCatalogs(store, document);
          print(deps, options, { imported }, `imported ${imported.join(', ')}`);
        });
      }),
    );

  registerAdminSnapshots(admin, deps, wrap);
  registerAdminFaults(admin, deps, wrap);
}
