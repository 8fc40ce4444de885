import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdminFaultsAdd } from '../../../../src/cli/commands/admin/faults/add.js';
import { registerAdminFaultsClear, runAdminFaultsClear } from '../../../../src/cli/commands/admin/faults/clear.js';
import { runAdminFaultsList } from '../../../../src/cli/commands/admin/faults/list.js';
import { stdoutOf, testDeps } from '../../../helpers/in-process.js';
import { itParsesFlags } from '../../../helpers/flags.js';
import { tempDir } from '../../../helpers/server.js';

describe('admin faults clear flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminFaultsClear(program.command('admin').command('faults'), deps, wrap, runF),
    [
      [['admin', 'faults', 'clear'], { options: {} }],
      [['admin', 'faults', 'clear', '--db', 'state.db'], { options: { db: 'state.db' } }],
      [['admin', 'faults', 'clear', 'all'], { usage: /too many arguments/ }],
    ],
  );
});

describe('admin faults clear, its run in this process on a database file', () => {
  const db = join(tempDir('reportctl-admin-run-'), 'admin.db');

  it('faults add, list and clear', async () => {
    const added = JSON.parse(await stdoutOf((deps) => runAdminFaultsAdd({ db, json: true, route: 'GET /api/v2/templates', status: 503, count: 2 }, deps)));
    const listed = JSON.parse(await stdoutOf((deps) => runAdminFaultsList({ db, json: true }, deps)));
    expect(listed).toEqual([expect.objectContaining({ id: added.id, status: 503, remaining: 2 })]);
    const fake = testDeps();
    await runAdminFaultsClear({ db }, fake.deps);
    expect(fake.stderr()).toBe('removed 1 fault\n');
    expect(fake.stdout()).toBe('');
    expect(JSON.parse(await stdoutOf((deps) => runAdminFaultsList({ db, json: true }, deps)))).toEqual([]);
  });
});
