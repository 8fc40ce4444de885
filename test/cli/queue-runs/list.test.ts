import { beforeAll, describe, expect, it } from 'vitest';
import { registerQueueRunsList } from '../../../src/cli/commands/queue-runs/list.js';
import { ANSI, runCli } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import type { IssuedKey } from '../../helpers/server.js';
import { accountWithManyRuns, expectEveryItemOnce, expectPageAsServed } from './support.js';

describe('queue-runs list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueueRunsList(program.command('queue-runs'), deps, wrap, runF),
    [
      [['queue-runs', 'list'], { options: {} }],
      [['queue-runs', 'ls', '--status', 'running', '--all'], { options: { status: 'running', all: true } }],
      [['queue-runs', 'list', '--status', 'cancelled', '--limit', '100', '--json'], { options: { status: 'cancelled', limit: 100, json: true } }],
      [['queue-runs', 'list', '--status', 'canceled'], { usage: /--status.*did you mean cancelled\?/ }],
      [['queue-runs', 'list', '--limit', '1.5'], { usage: /--limit.*expected a whole number/ }],
      [['queue-runs', 'list', '--all', '--limit', '5'], { options: { all: true, limit: 5 } }],
    ],
  );
});

describe('queue-runs list', () => {
  const suite = inProcessServiceForSuite();
  /** An account with more than 100 queues and runs, for paging. */
  let many: IssuedKey;
  beforeAll(async () => {
    many = await accountWithManyRuns(suite.server);
  });
  const envFor = (apiKey: string) => ({ REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: apiKey });

  it('the page notice goes to stderr only on a terminal or with --verbose (real pipes)', async () => {
    const env = envFor(many.apiKey);
    const [piped, verbose] = await Promise.all([runCli(['queue-runs', 'list'], { env }), runCli(['queue-runs', 'list', '--verbose'], { env })]);
    expect([piped.code, verbose.code]).toEqual([0, 0]);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(20);
    expect(piped.stderr).toBe('');
    expect(verbose.stderr).toMatch(/^showing 20 of 130 \(page 1\); use --all or --page 2$/m);
  });

  it('--all with --limit is a usage error: --all takes the largest pages', async () => {
    const result = await runInProcess(['queue-runs', 'list', '--all', '--limit', '5'], { env: envFor(many.apiKey) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('reportctl: --all and --limit cannot be used together\nhint: --all fetches every item (100 per request); --limit N alone gives the first N\n');
    expect(result.stdout).toBe('');
  });

  it('--json prints the page the service returned', async () => {
    await expectPageAsServed(suite.server, many.apiKey, ['queue-runs', 'list', '--limit', '7', '--page', '2'], '/api/v2/queue-runs?limit=7&page=2');
    await expectPageAsServed(suite.server, many.apiKey, ['queue-runs', 'list', '--status', 'running'], '/api/v2/queue-runs?status=running');
  });

  it('--all returns every item exactly once across pages', async () => {
    await expectEveryItemOnce(suite.server, many.apiKey, ['queue-runs', 'list'], '/api/v2/queue-runs', 130);
  });

  it('--status filters, piped output is tab-separated without colour, and the footer goes to stderr', async () => {
    const result = await runInProcess(['queue-runs', 'list', '--status', 'completed'], { env: { ...envFor(many.apiKey), NO_COLOR: '1' }, tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    const rows = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row[2]).toBe('completed');
    expect(result.stderr).toMatch(/^showing 20 of \d+ \(page 1\); use --all or --page 2$/m);
  });

  it('rejects a status the service does not know (exit 2)', async () => {
    const result = await runInProcess(['queue-runs', 'list', '--status', 'done'], { env: envFor(many.apiKey) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pending, claimed, running, completed, failed, cancelled');
  });
});
