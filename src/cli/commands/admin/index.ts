import type { Root } from '../../cmdutil/verb.js';
import type { Wrap } from '../../cmdutil/action.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { registerAdminAccountsCreate } from './accounts/create.js';
import { registerAdminAccountsList } from './accounts/list.js';
import { registerAdminAccountsSetLimit } from './accounts/set-limit.js';
import { registerAdminCatalogsImport } from './catalogs/import.js';
import { registerAdminExport } from './export.js';
import { registerAdminFaultsAdd } from './faults/add.js';
import { registerAdminFaultsClear } from './faults/clear.js';
import { registerAdminFaultsList } from './faults/list.js';
import { registerAdminImport } from './import.js';
import { registerAdminKeysCreate } from './keys/create.js';
import { registerAdminKeysRevoke } from './keys/revoke.js';
import { registerAdminQueueRunsAdvance } from './queue-runs/advance.js';
import { registerAdminQueueRunsCancel } from './queue-runs/cancel.js';
import { registerAdminQueueRunsEnqueue } from './queue-runs/enqueue.js';
import { registerAdminQueuesCreate } from './queues/create.js';
import { registerAdminReset } from './reset.js';
import { registerAdminSeed } from './seed.js';

export function registerAdmin(program: Root, deps: CliDeps, wrap: Wrap): void {
  const admin = program
    .command('admin')
    .description('Manage the embedded service database')
    .addHelpText('after', '\nEvery admin command works on the database file directly, with or without a running server.');

  const accounts = admin.command('accounts').description('Accounts (an owner and any number of sub-users)');
  registerAdminAccountsCreate(accounts, deps, wrap);
  registerAdminAccountsList(accounts, deps, wrap);
  registerAdminAccountsSetLimit(accounts, deps, wrap);

  const keys = admin.command('keys').description('API keys');
  registerAdminKeysCreate(keys, deps, wrap);
  registerAdminKeysRevoke(keys, deps, wrap);

  const queues = admin.command('queues').description('Saved queues (outside the API)');
  registerAdminQueuesCreate(queues, deps, wrap);

  const runs = admin.command('queue-runs').description('Drive queue runs through their life cycle');
  registerAdminQueueRunsEnqueue(runs, deps, wrap);
  registerAdminQueueRunsAdvance(runs, deps, wrap);
  registerAdminQueueRunsCancel(runs, deps, wrap);

  registerAdminSeed(admin, deps, wrap);

  const catalogs = admin.command('catalogs').description("The platform administrator's catalogs");
  registerAdminCatalogsImport(catalogs, deps, wrap);

  // The whole state saved, loaded, emptied.
  registerAdminExport(admin, deps, wrap);
  registerAdminImport(admin, deps, wrap);
  registerAdminReset(admin, deps, wrap);

  const faults = admin.command('faults').description('Injected faults: errors, slow responses, reset connections (for testing clients)');
  registerAdminFaultsAdd(faults, deps, wrap);
  registerAdminFaultsList(faults, deps, wrap);
  registerAdminFaultsClear(faults, deps, wrap);
}
