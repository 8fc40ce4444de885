import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { registerParity } from '../../../src/cli/commands/parity/parity.js';
import { BIN, cleanEnv } from '../../helpers/cli.js';
import { fakeClock } from '../../helpers/clock.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api, tempDir } from '../../helpers/server.js';

const FAMILY = 'reportctl-parity-';
const RECORDING = join(import.meta.dirname, '../../fixtures/parity');

interface ParityJson {
  result: 'same' | 'differs';
  operations: { operation: string; result: string; steps: number; compared: number; notComparable: { step: string; reason: string }[] }[];
  differences: { operation: string; step: string; path: string; expected: unknown; served: unknown }[];
  ignored: number;
  requests: { target?: number; serve: number };
}

describe('parity flags', () => {
  itParsesFlags(registerParity, [
    [['parity'], { options: { budget: 200, maxTime: 300, ignore: [], only: [] } }],
    [
      ['parity', '--budget', '50', '--max-time', '20', '--ignore', 'listTemplates:body.total', '--ignore', '*:header.etag', '--only', 'getTemplate', '--cleanup'],
      { options: { budget: 50, maxTime: 20, ignore: ['listTemplates:body.total', '*:header.etag'], only: ['getTemplate'], cleanup: true } },
    ],
    [['parity', '--replay', 'rec', '--json'], { options: { budget: 200, maxTime: 300, ignore: [], only: [], replay: 'rec', json: true } }],
    [['parity', '--budget', '0'], { usage: /--budget/ }],
    [['parity', '--max-time', 'soon'], { usage: /--max-time/ }],
  ]);
});

/** What a proxy in front of the target changes in one answer. */
type Change = (request: { method: string; path: string }, answer: { status: number; headers: Record<string, string>; body: unknown }) => void;

/** A proxy to `target` that changes its answers with `change`, and counts the requests it passed on. */
async function proxyTo(target: string, change: Change = () => {}): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      requests += 1;
      const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      try {
        const response = await fetch(target + incoming.url, { method: incoming.method!, headers, ...(body ? { body } : {}) });
        const text = await response.text();
        const answer = {
          status: response.status,
          headers: Object.fromEntries([...response.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))),
          body: text === '' ? undefined : (JSON.parse(text) as unknown),
        };
        change({ method: incoming.method!, path: incoming.url!.split('?')[0]! }, answer);
        const out = answer.body === undefined ? '' : JSON.stringify(answer.body);
        outgoing.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(out) });
        outgoing.end(out);
      } catch {
        outgoing.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

describe('parity against serve', () => {
  const suite = inProcessServiceForSuite();

  async function parity(args: string[], url = suite.server.url, options: Parameters<typeof runInProcess>[1] = {}) {
    const result = await runInProcess(['parity', '--json', ...args], { ...options, env: { REPORTCTL_BASE_URL: url, REPORTCTL_API_KEY: suite.account.apiKey } });
    return { ...result, report: result.stdout.trim() === '' ? undefined : (JSON.parse(result.stdout) as ParityJson) };
  }

  /** The names of the target account's templates from parity runs. */
  async function leftOnTarget(): Promise<string[]> {
    const page = await api(suite.server, 'GET', '/api/v2/templates?limit=100', { key: suite.account.apiKey });
    return (page.body as { data: { name: string }[] }).data.map((template) => template.name).filter((name) => name.startsWith(FAMILY));
  }

  it('finds no difference between serve and serve, records it, and leaves nothing behind', async () => {
    const dir = tempDir();
    const { code, stderr, report } = await parity(['--record', join(dir, 'rec')]);
    expect(code, stderr).toBe(0);
    expect(report!.differences).toEqual([]);
    // Every operation of the contract was compared, every step of it.
    expect(report!.operations).toHaveLength(15);
    for (const row of report!.operations) expect([row.operation, row.result, row.compared]).toEqual([row.operation, 'same', row.steps]);
    expect(report!.requests.target).toBeLessThanOrEqual(200);
    const files = readdirSync(join(dir, 'rec'));
    expect(files.filter((file) => /^\d{3}-/.test(file))).toHaveLength(report!.operations.reduce((sum, row) => sum + row.steps, 0));
    // Fit to commit: no key, no id, no time of this run.
    const recorded = files.map((file) => readFileSync(join(dir, 'rec', file), 'utf8')).join('\n');
    expect(recorded).not.toContain('rctl_');
    // service.json keeps the catalogs as served, their ids included; the steps hold none.
    const steps = files.filter((file) => file !== 'service.json').map((file) => readFileSync(join(dir, 'rec', file), 'utf8'));
    expect(steps.join('\n')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    expect(recorded).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(recorded).not.toMatch(/reportctl-parity-(?!<run>)/);
    expect(await leftOnTarget()).toEqual([]);
  });

  it("replays the project's recording with no difference", async () => {
    const { code, stderr, report } = await parity(['--replay', RECORDING]);
    expect(code, stderr).toBe(0);
    expect(report!.differences).toEqual([]);
    expect(report!.operations.every((row) => row.result === 'same' && row.compared === row.steps)).toBe(true);
    expect(report!.requests.target).toBeUndefined();
  });

  const changes: [what: string, only: string, change: Change, found: Partial<ParityJson['differences'][number]>[]][] = [
    [
      'a status code',
      'deleteTemplate',
      (request, answer) => {
        if (request.method === 'DELETE' && answer.status === 204) answer.status = 200;
      },
      [{ operation: 'deleteTemplate', step: 'deleteTemplate', path: 'status', expected: 200, served: 204 }],
    ],
    [
      'an error code',
      'createTemplate',
      (request, answer) => {
        if (request.method === 'POST' && answer.status === 400) (answer.body as { error: string }).error = 'BAD_REQUEST';
      },
      [{ operation: 'createTemplate', step: 'createTemplate.unknownField', path: 'body.error', expected: 'BAD_REQUEST', served: 'VALIDATION_FAILED' }],
    ],
    [
      'a field renamed',
      'getTemplate',
      (request, answer) => {
        const body = answer.body as Record<string, unknown>;
        if (request.method === 'GET' && 'paperSize' in body) {
          body.paper_size = body.paperSize;
          delete body.paperSize;
        }
      },
      [
        { operation: 'getTemplate', step: 'getTemplate', path: 'body.paperSize', expected: '(absent)', served: 'string' },
        { operation: 'getTemplate', step: 'getTemplate', path: 'body.paper_size', expected: 'string', served: '(absent)' },
      ],
    ],
    [
      "a field's type",
      'getTemplate',
      (request, answer) => {
        const body = answer.body as Record<string, unknown>;
        if (request.method === 'GET' && typeof body.mapResolution === 'number') body.mapResolution = String(body.mapResolution);
      },
      [{ operation: 'getTemplate', step: 'getTemplate', path: 'body.mapResolution', expected: 'string', served: 'number' }],
    ],
    [
      'a header dropped',
      'createTemplate',
      (_request, answer) => {
        delete answer.headers.location;
      },
      [{ operation: 'createTemplate', step: 'createTemplate', path: 'header.location', expected: '(absent)', served: '/api/v2/templates/<id>' }],
    ],
    [
      'a paging total',
      'listTemplates',
      (request, answer) => {
        const body = answer.body as { total?: number };
        if (request.method === 'GET' && request.path === '/api/v2/templates' && typeof body.total === 'number') body.total += 1;
      },
      [{ operation: 'listTemplates', step: 'listTemplates', path: 'body.total', expected: 4, served: 3 }],
    ],
    [
      'a formula verdict',
      'validateFormula',
      (request, answer) => {
        const body = answer.body as { valid?: boolean };
        if (request.path.endsWith('/validate-formula') && typeof body.valid === 'boolean') body.valid = !body.valid;
      },
      [{ operation: 'validateFormula', step: 'validateFormula.01', path: 'body.valid', expected: true, served: false }],
    ],
  ];

  it.each(changes)('finds %s, named at its operation and path', async (_what, only, change, found) => {
    const proxy = await proxyTo(suite.server.url, change);
    const { code, stderr, report } = await parity(['--only', only], proxy.url);
    expect(code, stderr).toBe(1);
    expect(report!.result).toBe('differs');
    for (const difference of found) expect(report!.differences).toContainEqual(expect.objectContaining(difference));
    expect(report!.operations.find((row) => row.operation === only)!.result).toBe('differs');
    expect(await leftOnTarget()).toEqual([]);
  });

  it('tells a failure served as a success by its status and error code, not field by field', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.path.endsWith('/presets')) {
        answer.status = 503;
        answer.body = { error: 'SERVICE_UNAVAILABLE', message: 'down' };
      }
    });
    const { code, report } = await parity(['--only', 'listPresets'], proxy.url);
    expect(code).toBe(1);
    expect(report!.differences.map(({ path, expected, served }) => [path, expected, served])).toEqual([
      ['status', 503, 200],
      ['body.error', 'SERVICE_UNAVAILABLE', '(absent)'],
    ]);
  });

  it('accepts a difference named by --ignore', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'DELETE' && answer.status === 204) answer.status = 200;
    });
    const { code, stderr, report } = await parity(['--only', 'deleteTemplate', '--ignore', 'deleteTemplate:status'], proxy.url);
    expect(code, stderr).toBe(0);
    expect(report!.ignored).toBe(1);
  });

  it('deletes what it created when the target fails mid-run', async () => {
    await suite.server.admin('faults', 'add', '--route', 'GET /api/v2/queues', '--reset-connection');
    onTestFinished(() => suite.server.admin('faults', 'clear'));
    const { code, stderr } = await parity(['--only', 'createTemplate', '--only', 'listQueues']);
    expect(code, stderr).toBe(6);
    expect(await leftOnTarget()).toEqual([]);
  });

  it('refuses an account holding an earlier run\'s templates, and --cleanup deletes them', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<string, { id: string; key: string; reportCategory: string }[]>;
    const entry = catalog.counting![0]!;
    const body = { name: `${FAMILY}abcdef-left`, analysisType: 'counting', reportType: entry.key, reportTypeId: entry.id, reportCategory: entry.reportCategory };
    expect((await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body })).status).toBe(201);
    const mine = { ...body, name: 'not a parity template' };
    const kept = (await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body: mine })).body as { id: string };
    onTestFinished(() => api(suite.server, 'DELETE', `/api/v2/templates/${kept.id}`, { key: suite.account.apiKey }).then(() => undefined));

    const refused = await parity(['--only', 'listPresets']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('left by an earlier parity run');
    expect(refused.stderr).toContain('--cleanup');
    expect(await leftOnTarget()).toEqual([`${FAMILY}abcdef-left`]);

    const cleaned = await parity(['--only', 'listTemplates', '--cleanup']);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(await leftOnTarget()).toEqual([]);
    // What it did not create stays, and the totals still compare (taken as held before).
    expect((await api(suite.server, 'GET', `/api/v2/templates/${kept.id}`, { key: suite.account.apiKey })).status).toBe(200);
  });

  it('stays within its budget against a target that answers 429', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.path.endsWith('/validate-formula')) {
        answer.status = 429;
        answer.body = { error: 'RATE_LIMITED', message: 'slow down' };
        answer.headers['retry-after'] = '5';
      }
    });
    const clock = fakeClock();
    const { code, stderr, report } = await parity(['--only', 'validateFormula', '--budget', '20'], proxy.url, { clock });
    expect(code, stderr).toBe(0);
    expect(proxy.requests()).toBeLessThanOrEqual(20);
    expect(report!.requests.target).toBe(proxy.requests());
    const reasons = report!.operations[0]!.notComparable.map((entry) => entry.reason);
    expect(reasons).toContain('expected: rate limited (429)');
    expect(reasons).toContain('expected: request budget spent');
    expect(stderr).toContain(`${reasons.length} steps not comparable`);
  });

  it('stays within its time against a target that answers slowly', async () => {
    const clock = fakeClock();
    // Each answer takes 10 s of the run's clock; --max-time allows 35 s.
    const proxy = await proxyTo(suite.server.url);
    const slow = { ...clock, sleep: clock.sleep, now: () => clock.now() + proxy.requests() * 10_000 };
    const { code, stderr, report } = await parity(['--only', 'validateFormula', '--max-time', '35'], proxy.url, { clock: slow });
    expect(code, stderr).toBe(0);
    expect(proxy.requests()).toBeLessThanOrEqual(4);
    expect(report!.operations[0]!.notComparable.map((entry) => entry.reason)).toContain('expected: out of time');
  });

  it('deletes what it created when interrupted (SIGINT, a real process)', async () => {
    // Slow formula checks keep the run going until the signal comes.
    await suite.server.admin('faults', 'add', '--route', 'POST /api/v2/templates/validate-formula', '--latency', '200');
    onTestFinished(() => suite.server.admin('faults', 'clear'));
    const child = spawn(process.execPath, [BIN, 'parity', '--only', 'createTemplate', '--only', 'validateFormula'], {
      env: cleanEnv({ REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while ((await leftOnTarget()).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('interrupted; the templates this run created on the target are deleted');
    expect(await leftOnTarget()).toEqual([]);
  });

  it('refuses --record with --replay, and an ignore without a path', async () => {
    const both = await parity(['--record', 'a', '--replay', 'b']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--record and --replay');
    const ignore = await parity(['--replay', RECORDING, '--ignore', 'listTemplates']);
    expect(ignore.code).toBe(2);
    expect(ignore.stderr).toContain('expected OPERATION:PATH');
  });

  it('says which recording file is missing', async () => {
    const { code, stderr } = await parity(['--replay', join(tempDir(), 'nothing')]);
    expect(code).toBe(4);
    expect(stderr).toContain('service.json');
  });
});
