import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdminAccountsCreate } from '../../../../src/cli/commands/admin/accounts/create.js';
import { registerAdminKeysCreate, runAdminKeysCreate } from '../../../../src/cli/commands/admin/keys/create.js';
import { stdoutOf } from '../../../helpers/in-process.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { tempDir } from '../../../helpers/server.js';

describe('admin keys create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminKeysCreate(program.command('admin').command('keys'), deps, wrap, runF),
    [
      [['admin', 'keys', 'create', '--account', 'acc-1'], { options: { account: 'acc-1' } }],
      [['admin', 'keys', 'create', '--account', 'acc-1', '--sub-user', 'pilot', '--json'], { options: { account: 'acc-1', subUser: 'pilot', json: true } }],
      [['admin', 'keys', 'create'], { usage: /required option '--account <id>' not specified/ }],
    ],
  );
});

describe('admin keys create, its run in this process on a database file', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('keys create gives a new sub-user its key', async () => {
    const owner = JSON.parse(await stdoutOf((deps) => runAdminAccountsCreate({ db, json: true, templateLimit: 100 }, deps)));
    const subUser = JSON.parse(await stdoutOf((deps) => runAdminKeysCreate({ db, json: true, account: owner.accountId, subUser: 'field-technician' }, deps)));
    expect(subUser.userId).not.toBe(owner.userId);
    expect(subUser.apiKey).not.toBe(owner.apiKey);
  });
});
