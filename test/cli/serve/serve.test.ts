import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerServe } from '../../../src/cli/commands/serve/serve.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runCli, spawnCli, type SpawnedCli, BIN } from '../../helpers/cli.js';
import { alive, waitFor } from '../../helpers/processes.js';
import { tempDir, api } from '../../helpers/server.js';
import { generalBody } from '../../contract/fixtures.js';
import { runInProcess } from '../../helpers/in-process.js';
import { createServer, type Server } from 'node:net';

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

describe('serve --fault and --seed', () => {
  const statusesOf = async (seed: string) => {
    const spawned = await spawnCli([
      'serve', '--port', '0', '--db', ':memory:', '--json', '--no-access-log', '--demo', '--seed', seed,
      '--fault', 'GET /api/v2/queues=503@0.5', '--fault', 'GET /api/v2/analyses=500x1',
    ]);
    try {
      const line = JSON.parse(spawned.firstLine) as { url: string; keys: { owner: string } };
      const statuses: number[] = [];
      for (let call = 0; call < 16; call++) statuses.push((await api(line, 'GET', '/api/v2/queues', { key: line.keys.owner })).status);
      const analyses = [];
      for (let call = 0; call < 2; call++) analyses.push((await api(line, 'GET', '/api/v2/analyses', { key: line.keys.owner })).status);
      return { statuses, analyses };
    } finally {
      await spawned.stop();
    }
  };

  it('the same seed faults the same requests', async () => {
    const first = await statusesOf('7');
    expect(first.analyses).toEqual([500, 200]);
    expect(first.statuses).toContain(503);
    expect(first.statuses).toContain(200);
    expect(await statusesOf('7')).toEqual(first);
  });

  it('a spec that does not parse is a usage error naming the syntax', async () => {
    const result = await runInProcess(['serve', '--port', '0', '--db', ':memory:', '--fault', 'GET /api/v2/queues=418']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('METHOD /PATH=ACTION');
  });
});

// `reportctl serve --exec`: the built binary, since exit statuses, child processes and signals
// are what is tested.
/** The built reportctl, as a word for the shell. */
const REPORTCTL = `"${process.execPath}" "${BIN}"`;

describe('serve --exec', () => {
  it("exits with the command's status, and 128+N when signal N ended it", async () => {
    // Three services at once, each on its own free port.
    const [failed, passed, killed] = await Promise.all([
      runCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', 'exit 7']),
      runCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', 'exit 0']),
      runCli(['serve', '--db', ':memory:', '--no-access-log', '--json', '--exec', 'kill -KILL $$']),
    ]);
    expect(failed.code).toBe(7);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('reportctl: the command exited with status 7');
    expect(passed.code).toBe(0);
    expect(killed.code).toBe(137);
    expect(JSON.parse(killed.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'COMMAND_FAILED', exitCode: 137 });
  });

  it('gives the command the base URL and, with --demo, the owner key; writes --export-on-exit after it', async () => {
    const dir = tempDir();
    const snapshot = join(dir, 'state.json');
    // Creates a template with what the environment says, and prints where it went.
    writeFileSync(
      join(dir, 'probe.mjs'),
      `const response = await fetch(process.env.REPORTCTL_BASE_URL + '/api/v2/templates', {
        method: 'POST',
        headers: { apiKey: process.env.REPORTCTL_API_KEY, 'content-type': 'application/json' },
        body: ${JSON.stringify(JSON.stringify(generalBody({ name: 'made under --exec' })))},
      });
      console.log(process.env.REPORTCTL_BASE_URL, response.status);`,
    );
    const result = await runCli([
      'serve', '--db', ':memory:', '--demo', '--no-access-log', '--export-on-exit', snapshot,
      '--exec', `node "${join(dir, 'probe.mjs')}" && ${REPORTCTL} templates get 'made under --exec' --json`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [probe, ...rest] = result.stdout.split('\n');
    // stdout is the command's alone: no listening line, no keys.
    expect(probe).toMatch(/^http:\/\/127\.0\.0\.1:(\d+) 201$/);
    expect(probe).not.toContain(':4747 ');
    expect((JSON.parse(rest.join('\n')) as { name: string }).name).toBe('made under --exec');
    expect(result.stderr).not.toContain('rctl_');
    const saved = JSON.parse(readFileSync(snapshot, 'utf8')) as { templates: { template: { name: string } }[] };
    expect(saved.templates.map((entry) => entry.template.name)).toContain('made under --exec');
  });

  describe('a service that cannot start exits 1 and never runs the command', () => {
    const marker = () => join(tempDir(), 'ran');
    let busy: Server | undefined;

    it.each([
      ['a busy port', async () => {
        const listening = (busy = createServer());
        await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
        return ['--db', ':memory:', '--port', String((listening.address() as { port: number }).port)];
      }, /port \d+ on 127\.0\.0\.1 is already in use/],
      ['a damaged --import file', async () => {
        const file = join(tempDir(), 'fixtures.json');
        writeFileSync(file, '{"format": "reportctl-snapshot",');
        return ['--import', file];
      }, /cannot start the service: .*fixtures\.json is damaged/],
      ['a corrupt database', async () => {
        const file = join(tempDir(), 'service.db');
        writeFileSync(file, Buffer.alloc(8192, 7));
        return ['--db', file];
      }, /cannot start the service: Cannot use database/],
    ])('%s', async (_what, options, message) => {
      const ran = marker();
      try {
        const result = await runCli(['serve', ...(await options()), '--exec', `touch "${ran}"`], { timeoutMs: 15_000 });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(existsSync(ran)).toBe(false);
      } finally {
        busy?.close();
        busy = undefined;
      }
    });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the command and everything it started, then the service', async (signal) => {
    const dir = tempDir();
    const snapshot = join(dir, 'state.json');
    const pidFile = join(dir, 'pid');
    // A shell that does not hand itself over to its command: the command is a grandchild.
    writeFileSync(join(dir, 'hold.mjs'), `import { writeFileSync } from 'node:fs';
      writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
      console.log('ready');
      setInterval(() => {}, 1000);`);
    const serve = await spawnCli([
      'serve', '--db', ':memory:', '--demo', '--no-access-log', '--export-on-exit', snapshot,
      '--exec', `node "${join(dir, 'hold.mjs')}"; echo "the shell went on"`,
    ]);
    expect(serve.firstLine).toBe('ready');
    const url = /listening on (\S+);/.exec(serve.stderr())![1]!;
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(alive(grandchild)).toBe(true);
      const exit = await Promise.race([serve.stop(signal), new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
      expect(exit).toEqual({ code: 128 + (signal === 'SIGTERM' ? 15 : 2), signal: null });
      expect(serve.stdout()).not.toContain('the shell went on');
      await waitFor(() => !alive(grandchild), `process ${grandchild} to end`, 5_000);
      expect(existsSync(snapshot)).toBe(true);
      await expect(fetch(`${url}/api/v2/openapi.json`)).rejects.toThrow();
    } finally {
      // Left over only when the test fails.
      if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
      await serve.stop('SIGKILL');
    }
  });
});

describe('serve without --json', () => {
  it('prints exactly "reportctl serve listening on http://127.0.0.1:PORT" first, and serves there', async () => {
    const serve = await spawnCli(['serve', '--demo', '--port', '0', '--db', ':memory:']);
    try {
      const match = /^reportctl serve listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(serve.firstLine);
      expect(match, serve.firstLine).not.toBeNull();
      expect(Number(match![2])).toBeGreaterThan(0);
      const response = await fetch(`${match![1]}/api/v2/openapi.json`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    } finally {
      const exit = await serve.stop('SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
    }
  });

  it('SIGINT closes it too, without being killed by the signal', async () => {
    const serve = await spawnCli(['serve', '--port', '0', '--db', ':memory:']);
    expect(serve.firstLine).toMatch(/^reportctl serve listening on http:\/\/127\.0\.0\.1:\d+$/);
    const exit = await serve.stop('SIGINT');
    expect(exit.signal).toBeNull();
    expect([0, 130]).toContain(exit.code);
  });
});
