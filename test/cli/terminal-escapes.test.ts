// Issue 17, item 3: a hostile or intercepted service must not drive the user's terminal.
// The service's strings carry ESC, BEL, OSC 0 (title), CSI 2J (clear), OSC 8 (hidden link),
// CR and C1 CSI (U+009B); whatever the CLI prints from them must show those characters, not
// send them. A real `serve` refuses such names, so a fake service answers here.
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runCli } from '../../src/cli/program.js';
import { systemClock, type CliDeps } from '../../src/cli/context.js';
import { fakeService, json, type FakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/server.js';
import { systemDeps } from '../../src/cli/system-deps.js';

const HOSTILE = '\u001b]0;pwned\u0007x\u001b[2J\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007\u009b31m\rforged\u007f\u0000';
/** How HOSTILE prints: every control character as \xHH. */
const SHOWN = '\\x1b]0;pwned\\x07x\\x1b[2J\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07\\x9b31m\\x0dforged\\x7f\\x00';
// Anything a terminal acts on, but the tab and newline the CLI itself writes between cells and lines.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const STAMP = '2026-01-01T00:00:00.000Z';
const TEMPLATE = {
  id: 'tpl-1',
  userId: 'u-1',
  name: HOSTILE,
  analysisType: 'counting',
  reportType: `stand_count${HOSTILE}`,
  reportTypeId: 'rt-1',
  reportCategory: 'general',
  selectedStatistics: [HOSTILE],
  createdAt: STAMP,
  updatedAt: STAMP,
};
const RUN = {
  id: 'run-1',
  name: HOSTILE,
  queueId: 'q-1',
  status: 'completed',
  estimatedHa: 12,
  steps: [{ order: 1, lotId: `lot${HOSTILE}`, analysisType: 'counting', status: 'completed', analysisId: 'a-1', finishedAt: STAMP }],
  createdAt: STAMP,
  startedAt: STAMP,
  finishedAt: STAMP,
};
const page = (data: unknown[]) => ({ total: data.length, page: 1, limit: 20, data });

/** Every exact body the fake service sent, by path, for the --json comparisons. */
const sent = new Map<string, string>();

function hostileService(): Promise<FakeService> {
  return fakeService((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!;
    // Node refuses C0 in a header value but sends C1 (latin1 bytes): undici reads U+009B back.
    const headers = { 'x-hostile': '\u009b2J\u009b31mred' };
    const answer = (status: number, body: unknown) => sent.set(`${request.method} ${path}`, json(response, status, body, headers));
    if (request.method === 'GET' && path === '/api/v2/templates') answer(200, page([TEMPLATE]));
    else if (request.method === 'GET' && path === '/api/v2/templates/tpl-1') answer(200, TEMPLATE);
    else if (request.method === 'GET' && path === '/api/v2/queue-runs') answer(200, page([RUN]));
    else if (request.method === 'POST' && path === '/api/v2/templates') {
      answer(400, { error: 'VALIDATION_FAILED', message: `rejected ${HOSTILE}`, issues: [{ path: `name${HOSTILE}`, message: HOSTILE }] });
    } else if (request.method === 'POST' && path === '/api/v2/templates/validate-formula') {
      answer(200, { valid: false, usesL: false, errors: [{ message: HOSTILE, offset: 0, length: 3 }] });
    } else answer(404, { error: 'NOT_FOUND', message: `no such thing ${HOSTILE}` });
  });
}

/** A stream that records what is written; a terminal (isTTY, 200 columns) when `tty`. */
function stream(tty: boolean) {
  const output = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 200 } : {});
  let text = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { output, text: () => text };
}

/** `reportctl ARGS` in this process, stdout a terminal or a pipe; colours off, so any ESC is the service's. */
async function cli(service: FakeService, args: string[], tty: boolean) {
  const stdout = stream(tty);
  // stderr stays a pipe: on a terminal it would carry the spinner's own escape sequences.
  const stderr = stream(false);
  const deps: CliDeps = systemDeps({
    io: { stdin: new PassThrough(), stdout: stdout.output, stderr: stderr.output },
    env: { REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: 'rctl_fake', REPORTCTL_CONFIG_DIR: tempDir(), NO_COLOR: '1' },
    clock: systemClock,
    signal: new AbortController().signal,
  });
  const code = await runCli(args, deps);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function expectNoRawControls(text: string): void {
  const at = text.search(RAW_CONTROL);
  expect(at, `raw control character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`).toBe(-1);
}

describe('strings from the service never reach the terminal raw (issue 17, item 3)', () => {
  it.each([
    ['a table on a terminal', ['templates', 'list'], true],
    ['tab-separated rows when piped', ['templates', 'list'], false],
    ['queue runs, piped', ['queue-runs', 'list'], false],
    ['one template on a terminal', ['templates', 'get', 'tpl-1'], true],
    ['one run and its steps on a terminal', ['queue-runs', 'get', 'run-1'], true],
    ['watch, piped (a line per change)', ['queue-runs', 'watch', 'run-1'], false],
    ['watch on a terminal (redrawn in place)', ['queue-runs', 'watch', 'run-1'], true],
    ['formula messages from the service', ['formula', 'validate', 'NIR'], true],
  ] as const)('%s', async (_what, args, tty) => {
    const service = await hostileService();
    const result = await cli(service, [...args], tty);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    expectNoRawControls(result.stdout);
    expectNoRawControls(result.stderr);
    expect(result.stdout + result.stderr).toContain(SHOWN.slice(0, 60));
  });

  it('tab-separated rows keep their columns: the escaped name is one cell', async () => {
    const service = await hostileService();
    const result = await cli(service, ['templates', 'list'], false);
    const cells = result.stdout.trimEnd().split('\n')[0]!.split('\t');
    expect(cells.slice(0, 4)).toEqual(['tpl-1', SHOWN, 'counting', `stand_count${SHOWN}`]);
  });

  it('error messages, issues and hints from the service', async () => {
    const service = await hostileService();
    const missing = await cli(service, ['templates', 'get', 'tpl-2'], true);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe(`reportctl: 404 NOT_FOUND: no such thing ${SHOWN}\n`);

    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ name: 'ok', analysisType: 'counting', reportType: 'stand_count', reportTypeId: 'rt-1', reportCategory: 'general' }));
    const rejected = await cli(service, ['templates', 'create', '--file', file], true);
    expect(rejected.code).toBe(1);
    expectNoRawControls(rejected.stderr);
    expect(rejected.stderr).toContain(`  name${SHOWN}: ${SHOWN}\n`);
  });

  it('--verbose traces: the service\'s headers', async () => {
    const service = await hostileService();
    const result = await cli(service, ['--verbose', 'templates', 'list'], false);
    expect(result.code).toBe(0);
    expectNoRawControls(result.stderr);
    // Node sends the header as UTF-8 and undici reads it as latin1: Â then the C1 CSI.
    expect(result.stderr).toContain('< x-hostile: \u00c2\\x9b2J\u00c2\\x9b31mred');
  });

  it('--json piped is byte for byte what the service sent', async () => {
    const service = await hostileService();
    const list = await cli(service, ['--json', 'templates', 'list'], false);
    expect(list.stdout).toBe(`${sent.get('GET /api/v2/templates')}\n`);
    const one = await cli(service, ['--json', 'templates', 'get', 'tpl-1'], false);
    expect(one.stdout).toBe(`${sent.get('GET /api/v2/templates/tpl-1')}\n`);
    const watched = await cli(service, ['--json', 'queue-runs', 'watch', 'run-1'], false);
    expect(JSON.parse(watched.stdout)).toEqual(RUN);
  });

  it('--json on a terminal: the same JSON value, with the C1 and DEL that JSON leaves raw escaped', async () => {
    const service = await hostileService();
    const result = await cli(service, ['--json', 'templates', 'get', 'tpl-1'], true);
    expectNoRawControls(result.stdout);
    expect(JSON.parse(result.stdout)).toEqual(TEMPLATE);
    expect(result.stdout).toContain('\\u009b31m');
  });
});
