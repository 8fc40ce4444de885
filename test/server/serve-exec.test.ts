// `reportctl serve --exec`: the built binary, since exit statuses, child processes and signals
// are what is tested.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generalBody } from '../contract/fixtures.js';
import { BIN, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { alive, waitFor } from '../helpers/processes.js';

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
