// `admin reset` on a terminal asks first, through the prompter (in this process).
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter } from '../../helpers/in-process.js';
import { registerAdminReset } from '../../../src/cli/commands/admin/reset.js';
import { itParsesFlags } from '../../helpers/flags.js';

const suite = inProcessServiceForSuite();

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
