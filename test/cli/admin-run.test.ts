// The admin verbs' `run` functions called in-process with fake streams, on a real database file.
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdminAccountsCreate } from '../../src/cli/commands/admin/accounts/create.js';
import { runAdminAccountsList } from '../../src/cli/commands/admin/accounts/list.js';
import { runAdminAccountsSetLimit } from '../../src/cli/commands/admin/accounts/set-limit.js';
import { runAdminFaultsAdd } from '../../src/cli/commands/admin/faults/add.js';
import { runAdminFaultsClear } from '../../src/cli/commands/admin/faults/clear.js';
import { runAdminFaultsList } from '../../src/cli/commands/admin/faults/list.js';
import { runAdminKeysCreate } from '../../src/cli/commands/admin/keys/create.js';
import { runAdminQueueRunsAdvance } from '../../src/cli/commands/admin/queue-runs/advance.js';
import { runAdminQueueRunsCancel } from '../../src/cli/commands/admin/queue-runs/cancel.js';
import { runAdminQueueRunsEnqueue } from '../../src/cli/commands/admin/queue-runs/enqueue.js';
import { runAdminQueuesCreate } from '../../src/cli/commands/admin/queues/create.js';
import { systemClock, type CliDeps } from '../../src/cli/context.js';
import { CliError, ExitCode } from '../../src/cli/errors.js';
import { systemDeps } from '../../src/cli/system-deps.js';
import { refusingPrompter } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';

/** Fake streams; `stdout()` and `stderr()` return what the verb has written so far. */
function fakeDeps() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const deps: CliDeps = systemDeps({ io: { stdin: new PassThrough(), stdout, stderr }, env: {}, clock: systemClock, signal: new AbortController().signal }, { prompter: refusingPrompter });
  return { deps, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** Runs one verb with fresh fake streams and returns its stdout. */
async function run(verb: (deps: CliDeps) => Promise<unknown>): Promise<string> {
  const fake = fakeDeps();
  await verb(fake.deps);
  return fake.stdout();
}

describe('admin verbs run in-process', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('accounts create, set-limit and list work on the database file', async () => {
    const issued = JSON.parse(await run((deps) => runAdminAccountsCreate({ db, json: true, name: 'Agro Norte', templateLimit: 7 }, deps)));
    expect(issued.apiKey).toMatch(/^rctl_/);
    const listed = () => run((deps) => runAdminAccountsList({ db, json: true }, deps)).then((text) => JSON.parse(text));
    expect(await listed()).toContainEqual(expect.objectContaining({ id: issued.accountId, name: 'Agro Norte', templateLimit: 7 }));
    await run((deps) => runAdminAccountsSetLimit(issued.accountId, 42, { db }, deps));
    expect(await listed()).toContainEqual(expect.objectContaining({ id: issued.accountId, templateLimit: 42 }));
    // Without --json, as every piped list: tab-separated, whole ids first, the key on a line of its own.
    const created = await run((deps) => runAdminAccountsCreate({ db, templateLimit: 100, name: 'Lote\tSur' }, deps));
    const [ids, key, ...rest] = created.split('\n');
    expect(rest).toEqual(['']);
    expect(key).toMatch(/^rctl_[^\s]+$/);
    const [accountId, userId] = ids!.split('\t');
    const rows = (await run((deps) => runAdminAccountsList({ db }, deps))).trim().split('\n').map((line) => line.split('\t'));
    expect(rows).toContainEqual([accountId, 'Lote Sur', '100']);
    // A new key without --sub-user is the owner's.
    const ownerKey = (await run((deps) => runAdminKeysCreate({ db, account: accountId! }, deps))).split('\n');
    expect(ownerKey[0]!.split('\t')).toEqual([userId, accountId]);
    expect(ownerKey[1]).toMatch(/^rctl_[^\s]+$/);
    expect(JSON.parse(await run((deps) => runAdminAccountsSetLimit(accountId!, 5, { db, json: true }, deps)))).toEqual({ accountId, templateLimit: 5 });
  });

  it('keys create gives a new sub-user its key', async () => {
    const owner = JSON.parse(await run((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const subUser = JSON.parse(await run((deps) => runAdminKeysCreate({ db, json: true, account: owner.accountId, subUser: 'field-technician' }, deps)));
    expect(subUser.userId).not.toBe(owner.userId);
    expect(subUser.apiKey).not.toBe(owner.apiKey);
  });

  it('queue-runs enqueue, advance and cancel print the run as it now is', async () => {
    const owner = JSON.parse(await run((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const queue = JSON.parse(
      await run((deps) => runAdminQueuesCreate({ db, json: true, account: owner.accountId, name: 'North lots', step: ['lot-7:counting', 'lot-8:replanting'] }, deps)),
    );
    expect(queue.steps.map((step: { lotId: string }) => step.lotId)).toEqual(['lot-7', 'lot-8']);
    const enqueued = JSON.parse(await run((deps) => runAdminQueueRunsEnqueue({ db, json: true, queue: queue.id, name: 'stepwise', estimatedHa: 12.5 }, deps)));
    expect(enqueued).toMatchObject({ name: 'stepwise', estimatedHa: 12.5, status: 'pending' });
    const advanced = await run((deps) => runAdminQueueRunsAdvance(enqueued.id, { db }, deps));
    expect(advanced).toBe(`${enqueued.id}\tclaimed\t1:pending 2:pending\n`);
    const cancelled = await run((deps) => runAdminQueueRunsCancel(enqueued.id, { db }, deps));
    expect(cancelled).toMatch(new RegExp(`^${enqueued.id}\tcancelled\t`));
  });

  it('a run that is not there is exit 4, a step out of range exit 2, with nothing on stdout', async () => {
    const fake = fakeDeps();
    const missing = await runAdminQueueRunsAdvance('no-such-run', { db }, fake.deps).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(CliError);
    expect((missing as CliError).exitCode).toBe(ExitCode.notFound);
    const owner = JSON.parse(await run((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const queue = JSON.parse(await run((deps) => runAdminQueuesCreate({ db, json: true, account: owner.accountId, name: 'q', step: ['lot-1:counting'] }, deps)));
    const outOfRange = await runAdminQueueRunsEnqueue({ db, queue: queue.id, failAtStep: 2 }, fake.deps).catch((error: unknown) => error);
    expect((outOfRange as CliError).exitCode).toBe(ExitCode.usage);
    expect(fake.stdout()).toBe('');
  });

  it('faults add, list and clear', async () => {
    const added = JSON.parse(await run((deps) => runAdminFaultsAdd({ db, json: true, route: 'GET /api/v2/templates', status: 503, count: 2 }, deps)));
    const listed = JSON.parse(await run((deps) => runAdminFaultsList({ db, json: true }, deps)));
    expect(listed).toEqual([expect.objectContaining({ id: added.id, status: 503, remaining: 2 })]);
    const fake = fakeDeps();
    await runAdminFaultsClear({ db }, fake.deps);
    expect(fake.stderr()).toBe('removed 1 fault\n');
    expect(fake.stdout()).toBe('');
    expect(JSON.parse(await run((deps) => runAdminFaultsList({ db, json: true }, deps)))).toEqual([]);
  });
});
