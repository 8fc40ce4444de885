// `admin reset` on a terminal asks first, through the prompter (in this process).
import { describe, expect, it } from 'vitest';
import { generalBody } from '../../contract/fixtures.js';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter, startInProcessService } from '../../helpers/in-process.js';
import { registerAdminReset } from '../../../src/cli/commands/admin/reset.js';
import { itParsesFlags } from '../../helpers/flags.js';

const suite = inProcessServiceForSuite();

const admin = (...args: string[]) => runInProcess(['admin', ...args]);

const reset = (answer: boolean) =>
  runInProcess(['admin', 'reset', '--db', suite.server.db], {
    tty: { stdin: true, stdout: true },
    prompter: scriptedPrompter({ kind: 'confirm', message: 'Remove every account and all its data', answer }),
  });

describe('admin reset on a terminal', () => {
  it('"no" removes nothing; "yes" removes every account', async () => {
    const kept = await reset(false);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain('nothing removed');
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).status).toBe(200);

    const removed = await reset(true);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/removed 1 account and their data/);
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).status).toBe(401);
  });
});

describe('admin reset flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminReset(program.command('admin'), deps, wrap, runF),
    [
      [['admin', 'reset'], { options: {} }],
      [['admin', 'reset', '--yes', '--db', 'state.db'], { options: { yes: true, db: 'state.db' } }],
      [['admin', 'reset', '-y', '--no-input'], { options: { yes: true, input: false } }],
      [['admin', 'reset', '--force'], { usage: /unknown option '--force'/ }],
    ],
  );
});

describe('admin reset', () => {
  it('removes every account and its data, keeps the catalogs; a running server sees it at once', async () => {
    const server = await startInProcessService();
    try {
      const account = await server.newAccount();
      expect((await api(server, 'POST', '/api/v2/templates', { key: account.apiKey, body: generalBody() })).status).toBe(201);
      expect((await api(server, 'GET', '/api/v2/templates', { key: account.apiKey })).status).toBe(200);

      const refused = await admin('reset', '--db', server.db);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--yes/);
      expect((await api(server, 'GET', '/api/v2/templates', { key: account.apiKey })).status).toBe(200);

      const reset = await admin('reset', '--db', server.db, '--yes', '--json');
      expect(reset.code, reset.stderr).toBe(0);
      expect(JSON.parse(reset.stdout)).toEqual({ accounts: 1 });
      expect((await api(server, 'GET', '/api/v2/templates', { key: account.apiKey })).status).toBe(401);
      expect(await server.admin('accounts', 'list')).toEqual([]);

      const fresh = await server.newAccount();
      const templates = await api(server, 'GET', '/api/v2/templates', { key: fresh.apiKey });
      expect(templates.body).toMatchObject({ total: 0, data: [] });
      const catalog = await api(server, 'GET', '/api/v2/catalogs/statistics', { key: fresh.apiKey });
      expect(Object.keys(catalog.body as object)).toEqual(['counting', 'replanting', 'path']);
    } finally {
      await server.stop();
    }
  });
});
