// Across verbs: --jq cannot run away. Each attack of the fourth audit (issue 50, rows 5 to 7),
// performed through the built binary: Ctrl-C and SIGTERM end a running filter at once; time,
// memory and depth are bounded, past each a one-line jq-style message and exit 1.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueRun as Run } from '../../src/contract/index.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import { spawnCliInPty } from '../helpers/pty.js';

const FORMULA = ['formula', 'check', '(NIR - R) / (NIR + R + eps)'];

/** CPU seconds `pid` has used (user and system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The binary running `args`, signalled once it has spent a second of CPU in jq (a whole command takes a tenth). */
async function signalledWhileFiltering(
  args: string[],
  signal: NodeJS.Signals,
  env: Record<string, string> = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  // A time bound far past the test's: only the signal can end the run in time.
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv({ ...env, REPORTCTL_JQ_TIMEOUT_MS: '600000' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signalled) => resolve({ code, signal: signalled })));
  while (child.exitCode === null && cpuSeconds(child.pid!) < 1) await new Promise((resolve) => setTimeout(resolve, 50));
  child.kill(signal);
  return { ...(await exited), stdout, stderr };
}

const suite = inProcessServiceForSuite();

describe('a running filter ends at once', () => {
  it('Ctrl-C: exit 130, as any command interrupted', async () => {
    expect(await signalledWhileFiltering([...FORMULA, '--jq', 'until(false; .)'], 'SIGINT')).toEqual({ code: 130, signal: null, stdout: '', stderr: '' });
  });

  it('Ctrl-C in the filter of a watch stream ends the watch too', async () => {
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'jq loop', '--step', 'lot-l:counting');
    const run = await suite.server.admin<Run>('queue-runs', 'enqueue', '--queue', queue.id);
    const env = { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey };
    const watch = ['queue-runs', 'watch', run.id, '--interval', '0.5', '--jq', 'until(false; .)'];
    expect(await signalledWhileFiltering(watch, 'SIGINT', env)).toEqual({ code: 130, signal: null, stdout: '', stderr: '' });
  });

  it('SIGTERM: the process ends as jq would', async () => {
    expect(await signalledWhileFiltering([...FORMULA, '--jq', 'repeat(1)'], 'SIGTERM')).toMatchObject({ code: null, signal: 'SIGTERM', stdout: '' });
  });
});

describe('a filter that runs away stops at a bound, with jq\'s kind of message', () => {
  it.each(['until(false; .)', '[range(1e9)]', 'repeat(1)', 'def f: f; f'])('%s, past REPORTCTL_JQ_TIMEOUT_MS', async (filter) => {
    const result = await runCli([...FORMULA, '--jq', filter], { env: { REPORTCTL_JQ_TIMEOUT_MS: '1000' } });
    expect(result).toEqual({ code: 1, signal: null, stdout: '', stderr: 'jq: error: the filter ran for more than 1 s and was stopped (REPORTCTL_JQ_TIMEOUT_MS)\n' });
  });

  it('and as one JSON line under --json', async () => {
    const result = await runCli([...FORMULA, '--json', '--jq', 'until(false; .)'], { env: { REPORTCTL_JQ_TIMEOUT_MS: '1000' } });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ error: 'JQ_ERROR', message: 'jq: error: the filter ran for more than 1 s and was stopped (REPORTCTL_JQ_TIMEOUT_MS)', exitCode: 1 });
  });

  it('memory: jq\'s allocation fails at 1 GiB as on a full machine, with jq\'s message and no runtime abort', async () => {
    const result = await runCli([...FORMULA, '--jq', 'reduce range(40) as $i ("x"; . + .) | length'], { timeoutMs: 60_000 });
    expect(result).toEqual({ code: 1, signal: null, stdout: '', stderr: 'jq: error: cannot allocate memory\n' });
  });

  it('a time bound that is not a number of milliseconds is a usage error', async () => {
    const result = await runCli([...FORMULA, '--jq', '.'], { env: { REPORTCTL_JQ_TIMEOUT_MS: '1s' } });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'reportctl: REPORTCTL_JQ_TIMEOUT_MS must be a whole number of milliseconds, got `1s`\n' });
  });
});

describe('deep nesting from the service, through --jq . on a terminal', () => {
  let service: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Answers /api/v2/deep/N with N arrays, one inside the other, around a 1.
    service = createServer((request, response) => {
      const depth = Number(request.url!.split('/').pop());
      response.setHeader('content-type', 'application/json');
      response.end(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

  const onTerminal = async (depth: number) => {
    const cli = spawnCliInPty(['api', 'GET', `deep/${depth}`, '--base-url', baseUrl, '--api-key', 'rctl_test', '--jq', '.']);
    const { code } = await cli.exited;
    return { code, shown: cli.transcript() };
  };

  it('shallow: printed, indented as jq indents', async () => {
    const { code, shown } = await onTerminal(3);
    expect(code).toBe(0);
    expect(shown.replaceAll('\r', '')).toBe('[\n  [\n    [\n      1\n    ]\n  ]\n]\n');
  });

  it.each([253, 254, 256])('%i levels: refused in one line, nothing half-printed', async (depth) => {
    const { code, shown } = await onTerminal(depth);
    expect(code).toBe(1);
    expect(shown.trim()).toBe('jq: error: a value nested too deep for jq here (its stack ran out); nothing of this input was printed');
  });

  it.each([257, 10_000])('%i levels: past what jq reads, its message', async (depth) => {
    const { code, shown } = await onTerminal(depth);
    expect(code).toBe(1);
    // One line, no stack trace.
    expect(shown.trim().split('\n')).toHaveLength(1);
    expect(shown).toMatch(/^(jq: parse error: Exceeds depth limit for parsing at line 1, column 257|reportctl: the JSON is nested too deep to print)/);
  });
});
