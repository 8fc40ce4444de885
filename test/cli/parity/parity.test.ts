import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { registerParity } from '../../../src/cli/commands/parity/parity.js';
import { BIN, cleanEnv } from '../../helpers/cli.js';
import { fakeClock } from '../../helpers/clock.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { spawnCliInPty } from '../../helpers/pty.js';
import { api, tempDir } from '../../helpers/server.js';
import { FAMILY, itemsIn, paritySuite, proxyTo, RECORDING } from './support.js';

/** The JSON line a failure under --json ends stderr with. */
const failureOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: string; message: string; exitCode: number };

describe('parity flags', () => {
  itParsesFlags(registerParity, [
    [['parity'], { options: { budget: 250, maxTime: 300, ignore: [], only: [] } }],
    [
      ['parity', '--budget', '50', '--max-time', '20', '--ignore', 'listTemplates:body.total', '--ignore', '*:header.etag', '--only', 'getTemplate', '--cleanup'],
      { options: { budget: 50, maxTime: 20, ignore: ['listTemplates:body.total', '*:header.etag'], only: ['getTemplate'], cleanup: true } },
    ],
    [
      ['parity', '--other-account-key', 'rctl_other', '--sub-user-key', 'rctl_sub'],
      { options: { budget: 250, maxTime: 300, ignore: [], only: [], otherAccountKey: 'rctl_other', subUserKey: 'rctl_sub' } },
    ],
    [['parity', '--replay', 'rec', '--json'], { options: { budget: 250, maxTime: 300, ignore: [], only: [], replay: 'rec', json: true } }],
    [['parity', '--budget', '0'], { usage: /--budget/ }],
    [['parity', '--max-time', 'soon'], { usage: /--max-time/ }],
  ]);
});

describe('parity against serve', () => {
  const suite = paritySuite();
  const allKeys = () => ['--other-account-key', suite.other.apiKey, '--sub-user-key', suite.subUserKey];

  it('finds nothing between serve and serve with every key, within its budget, and leaves nothing behind', async () => {
    const dir = tempDir();
    const { code, stderr, report } = await suite.parity(['--record', join(dir, 'rec'), ...allKeys()]);
    expect(code, stderr).toBe(0);
    expect(report!.differences).toEqual([]);
    expect(report!.specification).toEqual([]);
    expect(report!.notChecked).toEqual([]);
    // Every operation of the contract was compared, every step of it.
    expect(report!.operations).toHaveLength(15);
    for (const row of report!.operations) expect([row.operation, row.result, row.compared]).toEqual([row.operation, 'same', row.steps]);
    expect(report!.requests.target).toBeLessThanOrEqual(250);
    // More writes than the 30 a minute: the run waited for the window, and said so.
    expect(report!.waitedSeconds).toBeGreaterThan(0);
    expect(stderr).toMatch(/^parity: waiting \d+ s for the target: its write limit is spent$/m);
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
    expect(await suite.leftOnTarget()).toEqual([]);
    expect(await suite.leftOnTarget(suite.other.apiKey)).toEqual([]);
  });

  it('says what it could not check without the optional keys, and checks the rest', async () => {
    const { code, stderr, report } = await suite.parity(['--only', 'getTemplate', '--only', 'listTemplates']);
    expect(code, stderr).toBe(0);
    expect(report!.notChecked).toEqual([
      "another account's templates are not readable, writable or deletable, nor counted (pass --other-account-key)",
      "a sub-user's key sees what the owner's sees (pass --sub-user-key)",
    ]);
    expect(report!.operations.find((row) => row.operation === 'getTemplate')!.steps).toBe(3);
  });

  it("replays the project's recording with no difference", async () => {
    const { code, stderr, report } = await suite.parity(['--replay', RECORDING]);
    expect(code, stderr).toBe(0);
    expect(report!.differences).toEqual([]);
    expect(report!.specification).toEqual([]);
    expect(report!.operations.every((row) => row.result === 'same' && row.compared === row.steps)).toBe(true);
    expect(report!.requests.target).toBeUndefined();
  });

  it('accepts a difference or a finding named by --ignore', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'DELETE' && answer.status === 204) answer.status = 200;
      if (request.path.endsWith('/presets')) answer.headers['x-ratelimit-limit'] = '1000';
    });
    const { code, stderr, report } = await suite.parity(['--only', 'deleteTemplate', '--only', 'listPresets', '--ignore', 'deleteTemplate:status', '--ignore', '*:specification.rate-limit'], proxy.url);
    expect(code, stderr).toBe(0);
    expect(report!.ignored).toBe(2);
  });

  it('deletes what it created when the target fails mid-run', async () => {
    await suite.server.admin('faults', 'add', '--route', 'GET /api/v2/queues', '--reset-connection');
    onTestFinished(() => suite.server.admin('faults', 'clear'));
    const { code, stderr } = await suite.parity(['--only', 'createTemplate', '--only', 'listQueues']);
    expect(code, stderr).toBe(6);
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it("refuses an account holding an earlier run's templates, and --cleanup deletes them", async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<string, { id: string; key: string; reportCategory: string }[]>;
    const entry = catalog.counting![0]!;
    const body = { name: `${FAMILY}abcdef-left`, analysisType: 'counting', reportType: entry.key, reportTypeId: entry.id, reportCategory: entry.reportCategory };
    expect((await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body })).status).toBe(201);
    expect((await api(suite.server, 'POST', '/api/v2/templates', { key: suite.other.apiKey, body: { ...body, name: `${FAMILY}abcdef-other` } })).status).toBe(201);
    const mine = { ...body, name: 'not a parity template' };
    const kept = (await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body: mine })).body as { id: string };
    onTestFinished(() => api(suite.server, 'DELETE', `/api/v2/templates/${kept.id}`, { key: suite.account.apiKey }).then(() => undefined));

    const refused = await suite.parity(['--only', 'listPresets']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('left by an earlier parity run');
    expect(refused.stderr).toContain('--cleanup');
    expect(await suite.leftOnTarget()).toEqual([`${FAMILY}abcdef-left`]);
    const other = await suite.parity(['--only', 'listPresets', '--other-account-key', suite.other.apiKey]);
    expect(other.stderr).toContain('the account holds 1 templates left by an earlier parity run');

    const cleaned = await suite.parity(['--only', 'listTemplates', '--cleanup', '--other-account-key', suite.other.apiKey]);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(await suite.leftOnTarget()).toEqual([]);
    expect(await suite.leftOnTarget(suite.other.apiKey)).toEqual([]);
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
    const { code, stderr, report } = await suite.parity(['--only', 'validateFormula', '--budget', '20'], proxy.url);
    expect(code, stderr).toBe(0);
    expect(proxy.requests()).toBeLessThanOrEqual(20);
    expect(report!.requests.target).toBe(proxy.requests());
    const reasons = report!.operations[0]!.notComparable.map((entry) => entry.reason);
    expect(reasons).toContain('expected: rate limited (429)');
    expect(reasons).toContain('expected: request budget spent');
    expect(stderr).toContain(`${reasons.length} steps not comparable`);
    expect(stderr).toContain('parity: waiting 5 s for the target: it answered 429');
  });

  it('stays within its time against a target that answers slowly', async () => {
    const clock = fakeClock();
    // Each answer takes 10 s of the run's clock; --max-time allows 35 s.
    const proxy = await proxyTo(suite.server.url);
    const slow = { ...clock, sleep: clock.sleep, now: () => clock.now() + proxy.requests() * 10_000 };
    const { code, stderr, report } = await suite.parity(['--only', 'validateFormula', '--max-time', '35'], proxy.url, { clock: slow });
    expect(code, stderr).toBe(0);
    // The listing before the run, two or three checks, and the listing that looks for what is left.
    expect(proxy.requests()).toBeLessThanOrEqual(5);
    expect(report!.operations[0]!.notComparable.map((entry) => entry.reason)).toContain('expected: out of time');
  });

  it('prints a table, each difference once across the steps it shows in, and each finding', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.path === '/api/v2/queue-runs') for (const run of itemsIn(answer)) run.estimatedHa = String(run.estimatedHa);
    });
    await suite.clock.sleep(61_000);
    const { code, stdout, stderr } = await runInProcess(['parity', '--only', 'listQueueRuns'], { clock: suite.clock, env: { REPORTCTL_BASE_URL: proxy.url, REPORTCTL_API_KEY: suite.account.apiKey } });
    expect(code, stderr).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('listQueueRuns\t11\tdiffers\t1 finding');
    expect(lines.slice(1)).toEqual([
      'listQueueRuns body.data[].estimatedHa: expected string, served number (also .limit100, .unknownParameter, .status)',
      expect.stringMatching(/^survey\.listQueueRuns specification\.contract\.queue-run: queue runs as the contract describes them; the target sent \S+: estimatedHa: expected number, found string "[\d.]+" \(3 queue runs like this\)$/),
    ]);
    expect(stderr).toContain('4 differences from serve, 1 from the specification;');
  });

  it('refuses --record with --replay, the optional keys with --replay, one key twice, and an ignore without a path', async () => {
    const both = await suite.parity(['--record', 'a', '--replay', 'b']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--record and --replay');
    const keys = await suite.parity(['--replay', RECORDING, '--sub-user-key', 'rctl_x']);
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain('go with a live run');
    // Set in the environment, they are for live runs: a replay goes on.
    expect((await suite.parity(['--replay', RECORDING, '--only', 'listPresets'], undefined, { env: { REPORTCTL_PARITY_SUB_USER_KEY: 'rctl_x' } })).code).toBe(0);
    const same = await suite.parity(['--other-account-key', suite.account.apiKey]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('must be three different keys');
    const ignore = await suite.parity(['--replay', RECORDING, '--ignore', 'listTemplates']);
    expect(ignore.code).toBe(2);
    expect(ignore.stderr).toContain('expected OPERATION:PATH');
  });

  it('says which recording file is missing', async () => {
    const { code, stderr } = await suite.parity(['--replay', join(tempDir(), 'nothing')]);
    expect(code).toBe(4);
    expect(stderr).toContain('recording.json');
  });
});

describe('parity against a hostile target', () => {
  const suite = paritySuite();

  it('stops when a create is answered with the id of a template the account held, and deletes only its own', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<string, { id: string; key: string; reportCategory: string }[]>;
    const entry = catalog.counting![0]!;
    const held = (await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      body: { name: 'the real one', analysisType: 'counting', reportType: entry.key, reportTypeId: entry.id, reportCategory: entry.reportCategory },
    })).body as { id: string };
    onTestFinished(() => api(suite.server, 'DELETE', `/api/v2/templates/${held.id}`, { key: suite.account.apiKey }).then(() => undefined));
    const deletes: string[] = [];
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'DELETE') deletes.push(request.path);
      if (request.method === 'POST' && request.path === '/api/v2/templates' && answer.status === 201) (answer.body as { id: string }).id = held.id;
    });
    const { code, stderr, report } = await suite.parity(['--only', 'deleteTemplate'], proxy.url);
    expect(code).toBe(1);
    expect(report).toBeUndefined();
    expect(failureOf(stderr).error).toBe('UNEXPECTED_RESPONSE');
    expect(failureOf(stderr).message).toBe(
      `the target answered createTemplate.vegetationIndex with the id "${held.id}", the id of a template the account held before the run; parity stopped so as to delete nothing it did not create`,
    );
    expect(deletes).not.toContain(`/api/v2/templates/${held.id}`);
    expect((await api(suite.server, 'GET', `/api/v2/templates/${held.id}`, { key: suite.account.apiKey })).status).toBe(200);
    // Its own template, whose id it never learnt, was found by its name and deleted.
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('stops when a create is answered with an id not shaped as the service\'s, and sends it nowhere', async () => {
    const paths: string[] = [];
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      paths.push(request.path);
      if (request.method === 'POST' && request.path === '/api/v2/templates' && answer.status === 201) (answer.body as { id: string }).id = '../../catalogs/report-types';
    });
    const { code, stderr } = await suite.parity(['--only', 'getTemplate'], proxy.url);
    expect(code).toBe(1);
    expect(failureOf(stderr).message).toContain('with the id "../../catalogs/report-types", which is not shaped as the service\'s ids');
    expect(paths.filter((path) => path.includes('..') || path.includes('%2F'))).toEqual([]);
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('names what it left behind, and only that', async () => {
    // Deletes answer 204 and do nothing: the templates stay, and the run says which.
    const proxy = await proxyTo(suite.server.url, undefined, (request) =>
      request.method === 'DELETE' ? { answer: { status: 204, headers: { 'x-ratelimit-remaining': '10' }, body: undefined } } : undefined,
    );
    const { code, stderr } = await suite.parity(['--only', 'getTemplate'], proxy.url);
    expect(code).toBe(1);
    const left = await suite.leftOnTarget();
    // getTemplate reads two templates: the general one and the custom index.
    expect(left).toHaveLength(2);
    for (const name of left) expect(stderr).toContain(`"${name}" (id `);
    expect(stderr).toContain('`reportctl parity --cleanup` deletes them next time');
    await suite.parity(['--only', 'listPresets', '--cleanup']);
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('finds a template whose create went unanswered by its name, deletes it, and says nothing is left', async () => {
    // The target makes the template, then the connection drops before the answer.
    const proxy = await proxyTo(suite.server.url, (request) => {
      if (request.method === 'POST' && request.path === '/api/v2/templates') throw new Error('the answer never comes');
    });
    const { code, stderr } = await suite.parity(['--only', 'getTemplate'], proxy.url);
    expect(code).toBe(6);
    expect(stderr).not.toContain('left on the target');
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('says nothing was left behind when DELETE answers 200', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'DELETE' && answer.status === 204) answer.status = 200;
    });
    const { code, stderr, report } = await suite.parity(['--only', 'deleteTemplate'], proxy.url);
    expect(code).toBe(1);
    expect(report!.differences.map((difference) => [difference.step, difference.path])).toEqual([['deleteTemplate', 'status']]);
    expect(stderr).not.toContain('left on the target');
    expect(stderr).not.toContain('could not delete');
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('stops past what a run keeps (exit 9, one line) and still deletes its templates', async () => {
    // 12 MiB more in every answer once the templates are made: the third passes the 32 MiB.
    const padding = 'x'.repeat(12 * 1024 * 1024);
    let created = false;
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'POST' && request.path === '/api/v2/templates') created = true;
      if (created && request.method === 'GET' && typeof answer.body === 'object' && answer.body !== null) (answer.body as Record<string, unknown>).padding = padding;
    });
    const { code, stderr } = await suite.parity(['--only', 'listTemplates'], proxy.url);
    expect(code).toBe(9);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(failureOf(stderr)).toMatchObject({ error: 'ANSWERS_TOO_LARGE', exitCode: 9 });
    expect(failureOf(stderr).message).toMatch(/^the target's answers passed the 32 MiB a parity run keeps \(at [\w.]+\); the run stopped$/);
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('still finds and deletes a template whose create was answered past the bound (cleanup keeps nothing)', async () => {
    // 40 MiB in every answer from the first create on: that answer stops the run unread, and
    // the cleanup's listings, as large, are read (to the client's 64 MiB) for the names alone.
    const padding = 'x'.repeat(40 * 1024 * 1024);
    let created = false;
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.method === 'POST' && request.path === '/api/v2/templates' && answer.status === 201) created = true;
      if (created && typeof answer.body === 'object' && answer.body !== null) (answer.body as Record<string, unknown>).padding = padding;
    });
    const { code, stderr } = await suite.parity(['--only', 'getTemplate'], proxy.url);
    expect(code).toBe(9);
    expect(failureOf(stderr).message).toBe("the target's answers passed the 32 MiB a parity run keeps (at createTemplate, one answer alone); the run stopped");
    expect(stderr).not.toContain('left on the target');
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('says cleanly when serve cannot load the catalogs the target served', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.path.endsWith('/catalogs/statistics')) answer.body = { counting: 'not a list' };
    });
    const { code, stderr } = await suite.parity(['--only', 'createTemplate'], proxy.url);
    expect(code).toBe(1);
    expect(failureOf(stderr).message).toMatch(/^serve cannot load the target's catalogs, so nothing can be compared: catalogs: /);
    expect(stderr).not.toContain('unexpected error');
    expect(await suite.leftOnTarget()).toEqual([]);
  });
});

describe('parity waiting on a terminal', () => {
  // One write every 3 s: a real process waits a few seconds of the real clock, in a terminal.
  const target = inProcessServiceForSuite({ writesPerMinute: 1, rateWindowSeconds: 3 });

  it('counts the wait for the rate limit down in the spinner', { timeout: 60_000 }, async () => {
    const pty = spawnCliInPty(['parity', '--only', 'deleteTemplate'], { env: { REPORTCTL_BASE_URL: target.server.url, REPORTCTL_API_KEY: target.account.apiKey } });
    try {
      const first = Number((await pty.waitFor(/waiting (\d+) s for the target: its write limit is spent/))[1]);
      await pty.waitFor(`waiting ${first - 1} s for the target`, 5_000);
      expect((await pty.exited).code).toBe(1);
    } finally {
      pty.kill();
    }
  });
});

describe('parity interrupted', () => {
  // A real process on the real clock: a target of its own, at limits it never reaches.
  const target = inProcessServiceForSuite();

  it('deletes what it created when interrupted (SIGINT, a real process)', async () => {
    // Slow formula checks keep the run going until the signal comes.
    await target.server.admin('faults', 'add', '--route', 'POST /api/v2/templates/validate-formula', '--latency', '200');
    onTestFinished(() => target.server.admin('faults', 'clear'));
    const child = spawn(process.execPath, [BIN, 'parity', '--only', 'createTemplate', '--only', 'validateFormula'], {
      env: cleanEnv({ REPORTCTL_BASE_URL: target.server.url, REPORTCTL_API_KEY: target.account.apiKey }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const ours = async () => {
      const page = await api(target.server, 'GET', '/api/v2/templates?limit=100', { key: target.account.apiKey });
      return itemsIn({ status: page.status, headers: {}, body: page.body }).filter((template) => String(template.name).startsWith(FAMILY));
    };
    while ((await ours()).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('interrupted; the templates this run created on the target are deleted');
    expect(await ours()).toEqual([]);
  });
});
