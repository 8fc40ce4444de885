import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { runQueueRunsWatch, registerQueueRunsWatch } from '../../../src/cli/commands/queue-runs/watch.js';
import { runCli } from '../../../src/cli/program.js';
import type { Paginated as Page, QueueRun as Run } from '../../../src/contract/index.js';
import { ANSI, spawnCli } from '../../helpers/cli.js';
import { fakeClock } from '../../helpers/clock.js';
import { api, closedUrl, tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, startInProcessService, testDeps, type InProcessService } from '../../helpers/in-process.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inPlace } from '../../../src/cli/iostreams/redraw.js';
import { IOStreams } from '../../../src/cli/iostreams/io.js';
import { testWith } from '../../helpers/programs.js';
import { BIN, cleanEnv } from '../../helpers/cli.js';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// `reportctl queue-runs watch`: polls one run on the injected clock until it ends.

const suite = inProcessServiceForSuite();
/** The suite's account, with one saved queue of three steps, for runs that tests drive. */
let queueId: string;
beforeAll(async () => {
  const queue = await suite.server.admin<{ id: string }>(
    'queues', 'create', '--account', suite.account.accountId, '--name', 'North lots',
    '--step', 'lot-a:counting', '--step', 'lot-b:replanting', '--step', 'lot-c:path',
  );
  queueId = queue.id;
});

const envFor = (apiKey: string) => ({ REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: apiKey });
const enqueue = (options: string[] = []) => suite.server.admin<Run>('queue-runs', 'enqueue', '--queue', queueId, ...options);
const advance = (runId: string) => suite.server.admin<Run>('queue-runs', 'advance', runId);

/**
 * Runs `reportctl queue-runs watch` and advances the run at every second of its waits (on a
 * fake clock) until it has advanced `steps` times: every state is seen, and every state is
 * polled again unchanged.
 */
function watchWhileAdvancing(runId: string, steps: number, args: string[] = []) {
  const clock = fakeClock({
    onSleep: async (count) => {
      if (count % 2 === 0 && count / 2 <= steps) await advance(runId);
    },
  });
  return runInProcess(['queue-runs', 'watch', runId, '--interval', '0.5', ...args], { env: envFor(suite.account.apiKey), clock });
}

describe('queue-runs watch', () => {
  it('--exit-status: 0 for a run that completes; piped, one line per change', async () => {
    const run = await enqueue();
    // pending → claimed → running step 1 → step 2 → step 3 → completed: five advances.
    const result = await watchWhileAdvancing(run.id, 5, ['--exit-status']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    const lines = result.stdout.trim().split('\n');
    const at = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
    expect(lines[0]).toMatch(new RegExp(`^${at} run ${run.id} pending step 1/3 lot-a counting pending$`));
    expect(lines.at(-1)).toMatch(new RegExp(`^${at} run ${run.id} completed step 3/3 lot-c path completed$`));
    // Every line is a change: no two consecutive lines say the same thing.
    const states = lines.map((line) => line.replace(/^\S+ /, ''));
    for (let index = 1; index < states.length; index++) expect(states[index]).not.toBe(states[index - 1]);
    expect(states).toContain(`run ${run.id} running step 2/3 lot-b replanting running`);
  });

  it('--exit-status: 1 for a run that fails; --json prints NDJSON with the final run last', async () => {
    const run = await enqueue(['--fail-at-step', '2']);
    // pending → claimed → running step 1 → step 2 fails: four advances.
    const result = await watchWhileAdvancing(run.id, 4, ['--exit-status', '--json']);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    const runs = lines.map((line) => JSON.parse(line) as Run);
    expect(runs[0]!.status).toBe('pending');
    const last = runs.at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped']);
    // The final object is the run exactly as the service lists it.
    const listed = (await api(suite.server, 'GET', '/api/v2/queue-runs?status=failed&limit=100', { key: suite.account.apiKey })).body as Page<Run>;
    expect(last).toEqual(listed.data.find((candidate) => candidate.id === run.id));
    for (let index = 1; index < lines.length; index++) expect(lines[index]).not.toBe(lines[index - 1]);
  });

  it('--timeout reached with the run still going exits 8', async () => {
    const run = await enqueue();
    const clock = fakeClock();
    const result = await runInProcess(['queue-runs', 'watch', run.id, '--interval', '0.5', '--timeout', '1'], { env: envFor(suite.account.apiKey), clock });
    expect(result.code).toBe(8);
    expect(clock.elapsed()).toBe(1000);
    expect(result.stderr).toContain(`queue run ${run.id} is still pending after 1 s`);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('a run that has already finished is reported at once, and --exit-status still applies', async () => {
    const run = await enqueue();
    await suite.server.admin('queue-runs', 'cancel', run.id);
    const clock = fakeClock();
    const plain = await runInProcess(['queue-runs', 'watch', run.id], { env: envFor(suite.account.apiKey), clock });
    expect(clock.slept).toEqual([]); // not one 5 s interval
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(` run ${run.id} cancelled step 1/3 lot-a counting skipped$`))]);
    const strict = await runInProcess(['queue-runs', 'watch', run.id, '--exit-status', '--json'], { env: envFor(suite.account.apiKey) });
    expect(strict.code).toBe(1);
    expect((JSON.parse(strict.stdout) as Run).status).toBe('cancelled');
  });

  it('an unchanged run costs one request per poll', async () => {
    const run = await enqueue();
    // --verbose traces every request on stderr; five polls in 2 s (0, 0.5, 1, 1.5, 2).
    const result = await runInProcess(['queue-runs', 'watch', run.id, '--interval', '0.5', '--timeout', '2', '--verbose'], {
      env: envFor(suite.account.apiKey),
      clock: fakeClock(),
    });
    expect(result.code).toBe(8);
    const requests = result.stderr.split('\n').filter((line) => line.startsWith('> GET '));
    expect(requests).toHaveLength(5);
    for (const request of requests) expect(request).toContain('/api/v2/queue-runs?page=1&limit=100');
  });

  it('an unknown run exits 4; a rejected key exits 3', async () => {
    expect((await runInProcess(['queue-runs', 'watch', 'no-such-run'], { env: envFor(suite.account.apiKey) })).code).toBe(4);
    expect((await runInProcess(['queue-runs', 'watch', 'no-such-run'], { env: envFor('rctl_wrong') })).code).toBe(3);
  });

  it('rejects an interval under half a second (exit 2)', async () => {
    const result = await runInProcess(['queue-runs', 'watch', 'x', '--interval', '0.1'], { env: envFor(suite.account.apiKey) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('at least 0.5');
  });

  it('SIGINT stops the watch cleanly with exit 130', async () => {
    const run = await enqueue();
    const watch = await spawnCli(['queue-runs', 'watch', run.id, '--interval', '0.5', '--json'], { env: envFor(suite.account.apiKey) });
    expect((JSON.parse(watch.firstLine) as Run).id).toBe(run.id);
    const exit = await watch.stop('SIGINT');
    expect(exit.code).toBe(130);
  });

  it('keeps watching while the service is unreachable, and reports the run once it is back', async () => {
    const own = await startInProcessService();
    let restarted: InProcessService | undefined;
    try {
      const account = await own.newAccount();
      const queue = await own.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'Flaky', '--step', 'lot-a:counting');
      const run = await own.admin<Run>('queue-runs', 'enqueue', '--queue', queue.id);
      // After the first poll the service stops; once the watch has said it goes on, the run is
      // cancelled and the service is back: the same database on the same port.
      const clock = fakeClock({
        onSleep: async (count) => {
          if (count === 1) await own.stop();
          if (!restarted && watching.stderr().includes('still watching')) {
            await own.admin('queue-runs', 'cancel', run.id);
            restarted = await startInProcessService({ db: own.db, port: Number(new URL(own.url).port) });
          }
        },
      });
      const watching = testDeps({ env: { REPORTCTL_BASE_URL: own.url, REPORTCTL_API_KEY: account.apiKey }, clock });
      const code = await runCli(['queue-runs', 'watch', run.id, '--interval', '0.5', '--json', '--exit-status'], watching.deps);
      const watch = { code, stdout: watching.stdout(), stderr: watching.stderr() };
      expect(watch.code).toBe(1);
      const runs = watch.stdout.trim().split('\n').map((line) => JSON.parse(line) as Run);
      expect(runs.map((seen) => seen.status)).toEqual(['pending', 'cancelled']);
      expect(watch.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*; still watching, next try in/);
    } finally {
      await restarted?.stop();
    }
  });

  describe('a service that is down', () => {
    const RUN_ID = '0b0e6c1e-8f9a-4c7e-9a55-2d1f3c4b5a69';
    it('gives up after 2 minutes of failures in a row by default, exit 6; --max-unreachable sets it', async () => {
      const url = await closedUrl();
      const clock = fakeClock();
      const result = await runInProcess(['queue-runs', 'watch', RUN_ID], { env: { REPORTCTL_BASE_URL: url, REPORTCTL_API_KEY: 'rctl_x' }, clock });
      expect(result.code).toBe(6);
      expect(clock.elapsed()).toBeGreaterThanOrEqual(120_000);
      expect(clock.elapsed()).toBeLessThan(130_000);
      expect(result.stderr).toMatch(/still watching, next try in/);
      expect(result.stderr).toMatch(/reportctl: gave up after 12\d(\.\d)? s without an answer \(--max-unreachable\): cannot reach http:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED/);
      const short = fakeClock();
      const bounded = await runInProcess(['queue-runs', 'watch', RUN_ID, '--max-unreachable', '20'], { env: { REPORTCTL_BASE_URL: url, REPORTCTL_API_KEY: 'rctl_x' }, clock: short });
      expect(bounded.code).toBe(6);
      expect(short.elapsed()).toBeGreaterThanOrEqual(20_000);
      expect(short.elapsed()).toBeLessThan(30_000);
    });

    it('--timeout with the run never reached exits 6, not 8', async () => {
      const clock = fakeClock();
      const result = await runInProcess(['queue-runs', 'watch', RUN_ID, '--timeout', '30'], {
        env: { REPORTCTL_BASE_URL: await closedUrl(), REPORTCTL_API_KEY: 'rctl_x' },
        clock,
      });
      expect(result.code).toBe(6);
      expect(result.stderr).toContain(`queue run ${RUN_ID}: no answer from the service within 30 s (--timeout)`);
    });

    it('on a terminal the trouble is the status line, redrawn in place', async () => {
      const result = await runInProcess(['queue-runs', 'watch', RUN_ID, '--max-unreachable', '30'], {
        env: { REPORTCTL_BASE_URL: await closedUrl(), REPORTCTL_API_KEY: 'rctl_x' },
        clock: fakeClock(),
        tty: { stdout: true, columns: 60 },
      });
      expect(result.code).toBe(6);
      const draws = result.stdout.split('\u001b[1A\r');
      expect(draws.length).toBeGreaterThan(2);
      // eslint-disable-next-line no-control-regex
      for (const draw of draws.map((text) => text.replace(/\u001b\[[0-9;]*[mKJ]/g, ''))) {
        // One line that fits the 60 columns, so moving up one line redraws it exactly.
        expect(draw).toMatch(/^reportctl: cannot reach http:\/\/127\.0\.0\.1:\d+: [^\n]*\n$/);
        expect(draw.length).toBeLessThanOrEqual(60);
      }
      expect(result.stderr).not.toContain('still watching');
    });
  });

  it('on a terminal the view redraws in place, with status colours', async () => {
    const run = await enqueue(['--fail-at-step', '1']);
    const { deps, stdout } = testDeps({
      env: { ...envFor(suite.account.apiKey), REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-') },
      tty: { stdin: true, stdout: true, columns: 60 },
      // The run moves once at each of the watch's first three waits.
      clock: fakeClock({
        onSleep: async (count) => {
          if (count <= 3) await advance(run.id);
        },
      }),
    });
    await expect(runQueueRunsWatch(run.id, { interval: 0.5, maxUnreachable: 120, exitStatus: true }, deps)).rejects.toMatchObject({ exitCode: 1, details: { code: 'RUN_FAILED' } });
    const screen = stdout();
    // eslint-disable-next-line no-control-regex -- the escape that moves the cursor up
    const frames = screen.split(/\u001b\[\d+A\r/);
    expect(frames.length).toBeGreaterThan(2);
    // Each redraw first moves up over the previous frame (header, status, 3 steps, footer).
    expect(screen).toContain('\u001b[6A\r\u001b[2K');
    expect(screen).toMatch(ANSI);
    // eslint-disable-next-line no-control-regex
    const last = frames.at(-1)!.replace(/\u001b\[[0-9;]*[mKJ]/g, '').split('\n');
    expect(last[0]).toBe(`North lots  ${run.id}`.slice(0, 59));
    expect(last[1]).toMatch(/^✗ failed {2}0\/3 steps done {2}took \d+s$/);
    expect(last.slice(2, 5)).toEqual([
      expect.stringMatching(/^ {2}✗ 1\/3 {2}lot-a {2}counting {4}failed {2}\S+$/),
      '  - 2/3  lot-b  replanting  skipped',
      '  - 3/3  lot-c  path        skipped',
    ]);
    for (const line of last) expect(line.length).toBeLessThan(60);
  });
  testWith(
    'tmux',
    'in a real terminal the scrollback keeps one frame, also of a run taller than the terminal',
    async () => {
      // Runs move by themselves, as with `serve --simulate`, a step every 250 ms.
      const service = await startInProcessService({ simulateStepMs: 250 });
      const folder = tempDir('reportctl-tmux-');
      const tmux = (...args: string[]) => {
        const result = spawnSync('tmux', ['-S', join(folder, 'socket'), '-f', '/dev/null', ...args], {
          encoding: 'utf8',
          timeout: 60_000,
          env: cleanEnv({ REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: account.apiKey, NO_COLOR: '1' }),
        });
        if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr || String(result.error)}`);
        return result.stdout;
      };
      const account = await service.newAccount();
      try {
        const steps = Array.from({ length: 14 }, (_, index) => ['--step', `lot-${index}:counting`]).flat();
        const queue = await service.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'Tall queue', ...steps);
        const run = await service.admin<Run>('queue-runs', 'enqueue', '--queue', queue.id, '--name', 'Tall run');
        // 12 rows: the 17-row frame does not fit, so only the final frame is drawn whole.
        tmux('new-session', '-d', '-x', '70', '-y', '12', `${process.execPath} ${BIN} queue-runs watch ${run.id} --interval 0.5; tmux wait-for -S done; sleep 60`);
        tmux('pipe-pane', '-o', `cat >> ${join(folder, 'raw')}`);
        // Asynchronously: the service runs in this process and must go on answering.
        await promisify(execFile)('tmux', ['-S', join(folder, 'socket'), 'wait-for', 'done'], { timeout: 60_000 });
        // tmux may take the signal before it has read all of the pane's output: wait for the end.
        const capture = () => tmux('capture-pane', '-p', '-S', '-', '-E', '-');
        await expect.poll(capture, { timeout: 10_000 }).toMatch(/^ {2}✓ 14\/14 /m);
        const scrollback = capture();
        // eslint-disable-next-line no-control-regex -- the escape that moves the cursor up
        const redraws = readFileSync(join(folder, 'raw'), 'utf8').match(/\u001b\[\d+A/g) ?? [];
        // Several polls were drawn over one another ...
        expect(redraws.length, scrollback).toBeGreaterThanOrEqual(3);
        // ... and what the terminal keeps is the last of them, once, with every step.
        expect(scrollback.match(/^Tall run {2}/gm)).toHaveLength(1);
        expect(scrollback).toMatch(/^✓ completed {2}14\/14 steps done/m);
        for (let order = 1; order <= 14; order++) expect(scrollback).toMatch(new RegExp(`^ {2}✓ +${order}/14 {2}lot-${order - 1} `, 'm'));
        expect(scrollback).not.toContain('more steps');
      } finally {
        spawnSync('tmux', ['-S', join(folder, 'socket'), 'kill-server']);
        await service.stop();
      }
    },
    90_000,
  );

  it('counts the rows a frame took at the width the terminal has now (a resize wraps long lines)', () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 60, rows: 30 });
    let written = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
    const screen = inPlace(new IOStreams({ stdin: new PassThrough(), stdout, stderr: new PassThrough() }, {}));
    screen.draw(['x'.repeat(50), 'short']);
    stdout.columns = 25;
    screen.draw(['next']);
    // 50 characters take 2 rows of 25, the short line 1.
    expect(written).toContain('\u001b[3A\r\u001b[2Knext\n\u001b[J');
    expect(screen.rows()).toBe(29);
  });
});

describe('queue-runs watch flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerQueueRunsWatch(program.command('queue-runs'), deps, wrap, runF),
    [
      [['queue-runs', 'watch', 'r-1234'], { options: { interval: 5, maxUnreachable: 120 }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '-i', '0.5', '--timeout', '90', '--max-unreachable', '30', '--exit-status'], { options: { interval: 0.5, timeout: 90, maxUnreachable: 30, exitStatus: true }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '--json'], { options: { interval: 5, maxUnreachable: 120, json: true }, args: ['r-1234'] }],
      [['queue-runs', 'watch', 'r-1234', '--interval', '0.1'], { usage: /--interval.*expected a number of seconds of at least 0.5/ }],
      [['queue-runs', 'watch', 'r-1234', '--timeout', 'soon'], { usage: /--timeout.*expected a number of seconds/ }],
      [['queue-runs', 'watch', 'r-1234', '--max-unreachable', '0.5'], { usage: /--max-unreachable.*of at least 1/ }],
      [['queue-runs', 'watch'], { usage: /missing required argument 'id'/ }],
    ],
  );

});
