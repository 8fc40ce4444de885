import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerAdminAccountsCreate, runAdminAccountsCreate } from '../../../../src/cli/commands/admin/accounts/create.js';
import { runAdminAccountsList } from '../../../../src/cli/commands/admin/accounts/list.js';
import { runAdminAccountsSetLimit } from '../../../../src/cli/commands/admin/accounts/set-limit.js';
import { runAdminKeysCreate } from '../../../../src/cli/commands/admin/keys/create.js';
import { stdoutOf } from '../../../helpers/in-process.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { tempDir } from '../../../helpers/server.js';

describe('admin accounts create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminAccountsCreate(program.command('admin').command('accounts'), deps, wrap, runF),
    [
      [['admin', 'accounts', 'create'], { options: { templateLimit: 100 } }],
      [['admin', 'accounts', 'create', '--name', 'Agro Norte', '--template-limit', '50', '--db', 'state.db', '--json'], { options: { name: 'Agro Norte', templateLimit: 50, db: 'state.db', json: true } }],
      [['admin', 'accounts', 'create', '--template-limit', '-1'], { usage: /--template-limit.*expected a whole number from 0 up/ }],
      [['admin', 'accounts', 'create', '--db'], { usage: /option '--db <path>' argument missing/ }],
    ],
  );
});

describe('admin accounts create, its run in this process on a database file', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('accounts create, set-limit and list work on the database file', async () => {
    const issued = JSON.parse(await stdoutOf((deps) => runAdminAccountsCreate({ db, json: true, name: 'Agro Norte', templateLimit: 7 }, deps)));
    expect(issued.apiKey).toMatch(/^rctl_/);
    const listed = () => stdoutOf((deps) => runAdminAccountsList({ db, json: true }, deps)).then((text) => JSON.parse(text));
    expect(await listed()).toContainEqual(expect.objectContaining({ id: issued.accountId, name: 'Agro Norte', templateLimit: 7 }));
    await stdoutOf((deps) => runAdminAccountsSetLimit(issued.accountId, 42, { db }, deps));
    expect(await listed()).toContainEqual(expect.objectContaining({ id: issued.accountId, templateLimit: 42 }));
    // Without --json, as every piped list: tab-separated, whole ids first, the key on a line of its own.
    const created = await stdoutOf((deps) => runAdminAccountsCreate({ db, templateLimit: 100, name: 'Lote\tSur' }, deps));
    const [ids, key, ...rest] = created.split('\n');
    expect(rest).toEqual(['']);
    expect(key).toMatch(/^rctl_[^\s]+$/);
    const [accountId, userId] = ids!.split('\t');
    const rows = (await stdoutOf((deps) => runAdminAccountsList({ db }, deps))).trim().split('\n').map((line) => line.split('\t'));
    expect(rows).toContainEqual([accountId, 'Lote Sur', '100']);
    // A new key without --sub-user is the owner's.
    const ownerKey = (await stdoutOf((deps) => runAdminKeysCreate({ db, account: accountId! }, deps))).split('\n');
    expect(ownerKey[0]!.split('\t')).toEqual([userId, accountId]);
    expect(ownerKey[1]).toMatch(/^rctl_[^\s]+$/);
    expect(JSON.parse(await stdoutOf((deps) => runAdminAccountsSetLimit(accountId!, 5, { db, json: true }, deps)))).toEqual({ accountId, templateLimit: 5 });
  });
});
