import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdminAccountsCreate } from '../../../../src/cli/commands/admin/accounts/create.js';
import { registerAdminQueueRunsAdvance, runAdminQueueRunsAdvance } from '../../../../src/cli/commands/admin/queue-runs/advance.js';
import { runAdminQueueRunsCancel } from '../../../../src/cli/commands/admin/queue-runs/cancel.js';
import { runAdminQueueRunsEnqueue } from '../../../../src/cli/commands/admin/queue-runs/enqueue.js';
import { runAdminQueuesCreate } from '../../../../src/cli/commands/admin/queues/create.js';
import { CliError, ExitCode } from '../../../../src/cli/cmdutil/errors.js';
import { stdoutOf, testDeps } from '../../../helpers/in-process.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { tempDir } from '../../../helpers/server.js';

describe('admin queue-runs advance flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminQueueRunsAdvance(program.command('admin').command('queue-runs'), deps, wrap, runF),
    [
      [['admin', 'queue-runs', 'advance', 'r-1'], { options: {}, args: ['r-1'] }],
      [['admin', 'queue-runs', 'advance', 'r-1', '--db', 'state.db', '--json'], { options: { db: 'state.db', json: true }, args: ['r-1'] }],
      [['admin', 'queue-runs', 'advance'], { usage: /missing required argument 'run-id'/ }],
    ],
  );
});

describe('admin queue-runs advance, its run in this process on a database file', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('queue-runs enqueue, advance and cancel print the run as it now is', async () => {
    const owner = JSON.parse(await stdoutOf((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const queue = JSON.parse(
      await stdoutOf((deps) => runAdminQueuesCreate({ db, json: true, account: owner.accountId, name: 'North lots', step: ['lot-7:counting', 'lot-8:replanting'] }, deps)),
    );
    expect(queue.steps.map((step: { lotId: string }) => step.lotId)).toEqual(['lot-7', 'lot-8']);
    const enqueued = JSON.parse(await stdoutOf((deps) => runAdminQueueRunsEnqueue({ db, json: true, queue: queue.id, name: 'stepwise', estimatedHa: 12.5 }, deps)));
    expect(enqueued).toMatchObject({ name: 'stepwise', estimatedHa: 12.5, status: 'pending' });
    const advanced = await stdoutOf((deps) => runAdminQueueRunsAdvance(enqueued.id, { db }, deps));
    expect(advanced).toBe(`${enqueued.id}\tclaimed\t1:pending 2:pending\n`);
    const cancelled = await stdoutOf((deps) => runAdminQueueRunsCancel(enqueued.id, { db }, deps));
    expect(cancelled).toMatch(new RegExp(`^${enqueued.id}\tcancelled\t`));
  });

  it('a run that is not there is exit 4, with nothing on stdout', async () => {
    const fake = testDeps();
    const missing = await runAdminQueueRunsAdvance('no-such-run', { db }, fake.deps).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(CliError);
    expect((missing as CliError).exitCode).toBe(ExitCode.notFound);
    expect(fake.stdout()).toBe('');
  });
});
