import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdminAccountsCreate } from '../../../../src/cli/commands/admin/accounts/create.js';
import { registerAdminQueueRunsEnqueue, runAdminQueueRunsEnqueue } from '../../../../src/cli/commands/admin/queue-runs/enqueue.js';
import { runAdminQueuesCreate } from '../../../../src/cli/commands/admin/queues/create.js';
import { ExitCode, type CliError } from '../../../../src/cli/cmdutil/errors.js';
import { stdoutOf, testDeps } from '../../../helpers/in-process.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { tempDir } from '../../../helpers/server.js';

describe('admin queue-runs enqueue flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueueRunsEnqueue(program.command('admin').command('queue-runs'), deps, wrap, runF),
    [
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1'], { options: { queue: 'q-1' } }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--name', 'Tuesday', '--estimated-ha', '12.5', '--fail-at-step', '2'], { options: { queue: 'q-1', name: 'Tuesday', estimatedHa: 12.5, failAtStep: 2 } }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--estimated-ha', '-3'], { usage: /--estimated-ha: expected a number of hectares/ }],
      [['admin', 'queue-runs', 'enqueue', '--queue', 'q-1', '--fail-at-step', '0'], { usage: /--fail-at-step.*expected a whole number from 1 up/ }],
      [['admin', 'queue-runs', 'enqueue'], { usage: /required option '--queue <id>' not specified/ }],
    ],
  );
});

describe('admin queue-runs enqueue, its run in this process on a database file', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('a step out of range is exit 2, with nothing on stdout', async () => {
    const fake = testDeps();
    const owner = JSON.parse(await stdoutOf((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const queue = JSON.parse(await stdoutOf((deps) => runAdminQueuesCreate({ db, json: true, account: owner.accountId, name: 'q', step: ['lot-1:counting'] }, deps)));
    const outOfRange = await runAdminQueueRunsEnqueue({ db, queue: queue.id, failAtStep: 2 }, fake.deps).catch((error: unknown) => error);
    expect((outOfRange as CliError).exitCode).toBe(ExitCode.usage);
    expect(fake.stdout()).toBe('');
  });
});
