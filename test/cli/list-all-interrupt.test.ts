// Across verbs: Ctrl-C during a list's --all, for every list verb (they print through
// src/cli/output/list-output.ts): what was fetched is printed whole, stderr says how much, exit 130.
// The service allows one read a minute, so after the first page the walk waits, paced.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/cmdutil/context.js';
import { countDown } from '../../src/cli/iostreams/progress.js';
import type { Analysis } from '../../src/contract/index.js';
import { ANSI, BIN, cleanEnv } from '../helpers/cli.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { Keys, spawnCliInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/server.js';

const suite = inProcessServiceForSuite({ readsPerMinute: 1 });
/** A row of the terminal's table of analyses. */
const TABLE_ROW = /│ lot-\d+ +│ counting +│ completed +│/;

/** A new account (the read limit is per account) with 150 analyses: two pages of --all. */
async function accountWithAnalyses(): Promise<Record<string, string>> {
  const account = await suite.server.newAccount();
  const file = join(tempDir(), 'fixtures.json');
  const analyses = Array.from({ length: 150 }, (_, index) => ({ lotId: `lot-${index}`, analysisType: 'counting', status: 'completed' }));
  writeFileSync(file, JSON.stringify({ analyses }));
  await suite.server.admin('seed', '--account', account.accountId, '--file', file);
  return { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: account.apiKey };
}

/** A clock whose first wait is interrupted by Ctrl-C, as a person would during the pacing. */
function interruptedAtFirstWait(): { clock: Clock; signal: AbortSignal } {
  const interrupt = new AbortController();
  return {
    clock: { now: () => Date.now(), sleep: async () => interrupt.abort('SIGINT') },
    signal: interrupt.signal,
  };
}

describe('--all interrupted while paced', () => {
  it('--json: the list of what was fetched, closed; stderr says how many of how many; exit 130', async () => {
    const result = await runInProcess(['analyses', 'list', '--all', '--json'], { env: await accountWithAnalyses(), ...interruptedAtFirstWait() });
    expect(result.code).toBe(130);
    const list = JSON.parse(result.stdout) as { data: Analysis[]; total: number; page: number; limit: number };
    // limit (the items in data) short of total says the list is partial.
    expect({ total: list.total, page: list.page, limit: list.limit }).toEqual({ total: 150, page: 1, limit: 100 });
    const items = list.data;
    expect(items).toHaveLength(100);
    expect(new Set(items.map((item) => item.id)).size).toBe(100);
    expect(result.stderr).toContain('reportctl: interrupted after fetching 100 of 150 analyses; those are printed\n');
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'INTERRUPTED', exitCode: 130 });
  });

  it('piped: every fetched row, each whole', async () => {
    const analyses = await runInProcess(['analyses', 'list', '--all'], { env: await accountWithAnalyses(), ...interruptedAtFirstWait() });
    expect(analyses.code).toBe(130);
    const rows = analyses.stdout.split('\n');
    expect(rows.pop()).toBe('');
    expect(rows).toHaveLength(100);
    for (const row of rows) expect(row.split('\t')).toHaveLength(5);
    expect(analyses.stderr).toContain('reportctl: interrupted after fetching 100 of 150 analyses; those are printed\n');
  });

  it('on a terminal: the table of what was fetched', async () => {
    const result = await runInProcess(['analyses', 'list', '--all'], {
      env: await accountWithAnalyses(),
      tty: { stdout: true, columns: 120 },
      ...interruptedAtFirstWait(),
    });
    expect(result.code).toBe(130);
    const lines = result.stdout.replace(new RegExp(ANSI.source, 'g'), '').trim().split('\n');
    expect(lines.filter((line) => /\bID\b.*\bLOT\b.*\bANALYSIS\b.*\bSTATUS\b/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => TABLE_ROW.test(line))).toHaveLength(100);
    expect(result.stderr).toContain('interrupted after fetching 100 of 150 analyses');
  });

  it('the built binary, a real SIGINT: the JSON is closed', async () => {
    const env = await accountWithAnalyses();
    const child = spawn(process.execPath, [BIN, 'analyses', 'list', '--all', '--json'], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const paced = new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('pacing to the rate limit; next request in')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await paced;
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect((JSON.parse(stdout) as { data: unknown[] }).data).toHaveLength(100);
      const [pacing, interrupted, failure] = stderr.split('\n');
      expect(pacing).toMatch(/^reportctl: pacing to the rate limit; next request in \d+ s$/);
      expect(interrupted).toBe('reportctl: interrupted after fetching 100 of 150 analyses; those are printed');
      expect(JSON.parse(failure!)).toEqual({ error: 'INTERRUPTED', message: 'interrupted after fetching 100 of 150 analyses', exitCode: 130 });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('in a terminal: the spinner counts the wait down, and Ctrl-C prints the table', { timeout: 60_000 }, async () => {
    const pty = spawnCliInPty(['analyses', 'list', '--all'], { env: await accountWithAnalyses() });
    try {
      const first = Number((await pty.waitFor(/next request in (\d+) s/))[1]);
      await pty.waitFor(`next request in ${first - 1} s`, 5_000);
      await pty.type(Keys.ctrlC);
      await pty.waitFor('interrupted after fetching 100 of 150 analyses; those are printed');
      expect((await pty.exited).code).toBe(130);
      const rows = pty.transcript().split('\n').filter((line) => TABLE_ROW.test(line));
      expect(rows).toHaveLength(100);
    } finally {
      pty.kill();
    }
  });
});

describe('countDown', () => {
  it('shows the seconds left each time they change, and stops when aborted', async () => {
    const slept: number[] = [];
    const clock: Clock = { now: () => 0, sleep: async (ms) => void slept.push(ms) };
    const shown: string[] = [];
    await countDown((left) => `next request in ${Math.ceil(left / 1000)} s`, 3_400, clock, (text) => shown.push(text), new AbortController().signal);
    expect(shown).toEqual(['next request in 4 s', 'next request in 3 s', 'next request in 2 s', 'next request in 1 s']);
    expect(slept).toEqual([400, 1000, 1000, 1000]);
    const stop = new AbortController();
    const stopped: string[] = [];
    const stopping: Clock = { now: () => 0, sleep: async () => stop.abort() };
    await countDown((left) => `${left}`, 5_000, stopping, (text) => stopped.push(text), stop.signal);
    expect(stopped).toEqual(['5000']);
  });
});
