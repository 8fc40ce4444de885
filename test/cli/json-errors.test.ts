// Across verbs: a failed `--json` command prints nothing on stdout and one JSON line on stderr.
// In this process (runCli's exit code is the process's, main.ts), but for one run of the
// built binary that shows the process ends the same way.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { api, tempDir } from '../helpers/server.js';
import { fakeClock } from '../helpers/clock.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { generalBody } from '../contract/fixtures.js';

/** What a CI job reads from a failed `--json` command: nothing on stdout, one JSON line on stderr. */
function jsonFailure(result: CliResult): Record<string, unknown> {
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines, result.stderr).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('--json failures are one JSON line on stderr', () => {
  const suite = inProcessServiceForSuite();

  it("a template the service rejects: the service's error, message and issues, unchanged", async () => {
    const body = generalBody({ reportType: 'No such report type' });
    const direct = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
    expect(direct.status).toBe(400);
    const file = join(tempDir(), 'template.json');
    writeFileSync(file, JSON.stringify(body));
    const result = await runInProcess(['templates', 'create', '--file', file, '--json'], { env: suite.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const failure = jsonFailure(result);
    const service = direct.body as { error: string; message: string; issues: unknown[] };
    expect(failure).toMatchObject({ error: service.error, message: service.message, issues: service.issues, status: 400, exitCode: 1 });
    expect(failure.hint).toEqual(expect.stringContaining('reportType'));
  });

  it('a template that fails the local check: VALIDATION_FAILED with the issues at their paths', async () => {
    const file = join(tempDir(), 'template.json');
    writeFileSync(file, JSON.stringify(generalBody({ margins: { top: 'two', right: 2, bottom: 2, left: 2 } })));
    const result = await runInProcess(['templates', 'create', '--file', file, '--json'], { env: suite.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const failure = jsonFailure(result);
    expect(failure).toMatchObject({ error: 'VALIDATION_FAILED', exitCode: 1 });
    expect(failure.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'margins.top' })]));
  });

  it('not found: the service code, status 404, exit 4', async () => {
    const result = await runInProcess(['templates', 'get', '00000000-0000-4000-8000-000000000000', '--json'], { env: suite.env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(jsonFailure(result)).toMatchObject({ error: 'NOT_FOUND', status: 404, exitCode: 4 });
  });

  it('a rejected key: the service code, status 401, exit 3', async () => {
    const result = await runInProcess(['templates', 'list', '--json'], { env: { ...suite.env, REPORTCTL_API_KEY: 'rctl_wrong' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(jsonFailure(result)).toMatchObject({ error: 'API_KEY_INVALID', status: 401, exitCode: 3 });
  });

  it('no service: NETWORK_ERROR, exit 6', async () => {
    // A fake clock: the retries' back-off passes without waiting.
    const result = await runInProcess(['templates', 'list', '--json'], { env: { ...suite.env, REPORTCTL_BASE_URL: 'http://127.0.0.1:9' }, clock: fakeClock() });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    const failure = jsonFailure(result);
    expect(failure).toMatchObject({ error: 'NETWORK_ERROR', exitCode: 6 });
    expect(failure.hint).toMatch(/service running/);
  });

  it.each([
    [['templates', 'list', '--limit', '500', '--json']],
    [['templates', 'list', '--no-such-flag', '--json']],
    [['templates', 'get', '--json']],
  ])('a usage error (%j): USAGE, exit 2, no human text', async (args) => {
    const result = await runInProcess(args, { env: suite.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(jsonFailure(result)).toMatchObject({ error: 'USAGE', exitCode: 2 });
  });

  it('watch reaching --timeout: WATCH_TIMEOUT, exit 8, the run still on stdout', async () => {
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'q', '--step', 'lot-1:counting');
    const run = await suite.server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id);
    // On a fake clock: the polls and the timeout pass without waiting.
    const clock = fakeClock();
    const result = await runInProcess(['queue-runs', 'watch', run.id, '--json', '--interval', '0.5', '--timeout', '1'], { env: suite.env, clock });
    expect(result.code).toBe(8);
    expect(clock.elapsed()).toBe(1000);
    expect(JSON.parse(result.stdout.trim().split('\n')[0]!)).toMatchObject({ id: run.id, status: 'pending' });
    expect(jsonFailure(result)).toMatchObject({ error: 'WATCH_TIMEOUT', exitCode: 8 });
  });

  it('an invalid formula: the verdict on stdout, FORMULA_INVALID on stderr, exit 1', async () => {
    const result = await runInProcess(['formula', 'check', 'nir / R', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false });
    expect(jsonFailure(result)).toMatchObject({ error: 'FORMULA_INVALID', exitCode: 1 });
  });

  it('REPORTCTL_JSON_ERRORS=1 makes failures JSON without --json', async () => {
    const result = await runInProcess(['templates', 'get', '00000000-0000-4000-8000-000000000000'], { env: { ...suite.env, REPORTCTL_JSON_ERRORS: '1' } });
    expect(result.code).toBe(4);
    expect(jsonFailure(result)).toMatchObject({ error: 'NOT_FOUND', exitCode: 4 });
  });

  it('the built binary ends with the same exit code and JSON line', async () => {
    const args = ['templates', 'get', '00000000-0000-4000-8000-000000000000', '--json'];
    const [child, inProcess] = await Promise.all([runCli(args, { env: suite.env }), runInProcess(args, { env: suite.env })]);
    expect(child.code).toBe(4);
    expect(child.stdout).toBe('');
    expect(jsonFailure(child)).toEqual(jsonFailure(inProcess));
  });

  it('without --json, failures stay text for people', async () => {
    const result = await runInProcess(['templates', 'get', '00000000-0000-4000-8000-000000000000'], { env: suite.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^reportctl: template 0{8}-\S+ not found: /);
    expect(() => JSON.parse(result.stderr)).toThrow();
  });
});
