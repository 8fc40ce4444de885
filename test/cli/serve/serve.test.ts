import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerServe } from '../../../src/cli/commands/serve/serve.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runCli, spawnCli, type SpawnedCli } from '../../helpers/cli.js';
import { alive, waitFor } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/server.js';

/** What serve runs with when no flag is given. */
const SERVE_DEFAULTS = { host: '127.0.0.1', allowHost: [], port: 4747, stepSeconds: 2, readsPerMinute: 120, writesPerMinute: 30, rateWindowSeconds: 60, accessLog: true, fault: [] };

describe('serve flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerServe(program, deps, wrap, runF),
    [
      [['serve'], { options: SERVE_DEFAULTS }],
      [
        ['serve', '--host', '0.0.0.0', '--allow-host', 'lab.local', '--allow-host', 'box', '--port', '0', '--db', ':memory:', '--demo', '--simulate', '--step-seconds', '0.5'],
        { options: { ...SERVE_DEFAULTS, host: '0.0.0.0', allowHost: ['lab.local', 'box'], port: 0, db: ':memory:', demo: true, simulate: true, stepSeconds: 0.5 } },
      ],
      [
        ['serve', '--reads-per-minute', '600', '--writes-per-minute', '60', '--rate-window-seconds', '5', '--no-access-log', '--seed', '7', '--max-in-flight', '4'],
        { options: { ...SERVE_DEFAULTS, readsPerMinute: 600, writesPerMinute: 60, rateWindowSeconds: 5, accessLog: false, seed: 7, maxInFlight: 4 } },
      ],
      [
        ['serve', '--import', 'fixtures.json', '--export-on-exit', 'state.json', '--fault', 'GET /api/v2/templates=503x2', '--fault', '* /api/*=reset'],
        { options: { ...SERVE_DEFAULTS, import: 'fixtures.json', exportOnExit: 'state.json', fault: ['GET /api/v2/templates=503x2', '* /api/*=reset'] } },
      ],
      // --exec takes a free port unless --port is given.
      [['serve', '--exec', 'npm test'], { options: { ...SERVE_DEFAULTS, exec: 'npm test', port: 0 } }],
      [['serve', '--exec', 'npm test', '--port', '4747'], { options: { ...SERVE_DEFAULTS, exec: 'npm test' } }],
      [['serve', '--port', '65536'], { usage: /--port.*expected a whole number from 0 to 65535/ }],
      [['serve', '--step-seconds', '0'], { usage: /--step-seconds.*of at least 0.01/ }],
      [['serve', '--reads-per-minute', '0'], { usage: /--reads-per-minute.*expected a whole number from 1 up/ }],
      [['serve', '--seed', '-1'], { usage: /--seed.*expected a whole number from 0 to 4294967295/ }],
      [['serve', '--max-in-flight', '0'], { usage: /--max-in-flight.*expected a whole number from 1 up/ }],
    ],
  );
});

// --exec with real processes: process groups, signals and exit statuses are what is tested.
describe('serve --exec: nothing of the command outlives serve', () => {
  const started: number[] = [];
  /** Shell text that starts a daemon in the background and writes its pid to a new file. */
  const daemon = (what: string) => {
    const pidFile = join(tempDir(), 'pid');
    return { pidFile, shell: `(${what}) >/dev/null 2>&1 & echo $! > "${pidFile}"` };
  };
  const pidIn = (file: string) => {
    const pid = Number(readFileSync(file, 'utf8'));
    started.push(pid);
    return pid;
  };
  let serve: SpawnedCli | undefined;
  afterEach(async () => {
    // Left over only when a test fails.
    for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await serve?.stop('SIGKILL');
    serve = undefined;
  });
  const LOOP = 'while :; do sleep 0.1; done';

  it('a daemon the command forked is ended when the command ends: SIGTERM, then SIGKILL after the grace period', async () => {
    const plain = daemon('exec sleep 1000');
    const stubborn = daemon("trap '' TERM; exec sleep 1000");
    const result = await runCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', `${plain.shell}; ${stubborn.shell}`], { timeoutMs: 15_000 });
    const pids = [pidIn(plain.pidFile), pidIn(stubborn.pidFile)];
    expect(result.code, result.stderr).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s: serve exits %i even when the command ends with 0 on it', async (signal, status) => {
    serve = await spawnCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', `trap 'exit 0' TERM INT; echo ready; ${LOOP}`]);
    expect(serve.firstLine).toBe('ready');
    const exit = await serve.stop(signal);
    expect(exit).toEqual({ code: status, signal: null });
    expect(serve.stderr()).toContain(`stopped by ${signal}; the command then exited with status 0`);
  });

  it('a command that ignores SIGTERM is killed after the grace period; serve exits 143', async () => {
    const stubborn = daemon("trap '' TERM; exec sleep 1000");
    serve = await spawnCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', `trap '' TERM; ${stubborn.shell}; echo ready; ${LOOP}`]);
    expect(serve.firstLine).toBe('ready');
    const pid = pidIn(stubborn.pidFile);
    const exit = await serve.stop('SIGTERM');
    expect(exit).toEqual({ code: 143, signal: null });
    expect(alive(pid)).toBe(false);
  });

  it('a second SIGTERM ends serve at once with 143, and kills what the command still runs', async () => {
    const stubborn = daemon("trap '' TERM; exec sleep 1000");
    serve = await spawnCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', `trap 'echo "got TERM" >&2' TERM; ${stubborn.shell}; echo ready; ${LOOP}`]);
    expect(serve.firstLine).toBe('ready');
    const pid = pidIn(stubborn.pidFile);
    serve.child.kill('SIGTERM');
    await waitFor(() => serve!.stderr().includes('got TERM'), 'the command to get the first SIGTERM');
    const exit = await serve.stop('SIGTERM');
    expect(exit).toEqual({ code: 143, signal: null });
    await waitFor(() => !alive(pid), `process ${pid} to end`, 5_000);
  });
});

describe('serve --demo on an existing database', () => {
  it('says on stderr that the earlier demo keys are revoked, with --exec as without', async () => {
    const db = join(tempDir(), 'w.db');
    const first = await runCli(['serve', '--demo', '--db', db, '--no-access-log', '--exec', 'true']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('revoked');
    const again = await runCli(['serve', '--demo', '--db', db, '--no-access-log', '--exec', 'true']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("revoked the demo account's 2 earlier keys; only the key given to the command is valid");
    const plain = await spawnCli(['serve', '--demo', '--db', db, '--no-access-log', '--port', '0']);
    try {
      await waitFor(() => plain.stderr().includes('revoked'), 'the notice');
      expect(plain.stderr()).toContain("revoked the demo account's 2 earlier keys; only the keys above are valid");
    } finally {
      await plain.stop('SIGTERM');
    }
  });
});
