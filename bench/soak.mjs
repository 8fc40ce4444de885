// Soak at the limits: `reportctl serve` with its DEFAULT rate limits (120 reads / 30 writes a
// minute per account), 10 accounts × 5 concurrent clients, for --seconds (default 60), paced
// to stay just under the limits, plus one deliberate burst per account beyond them.
// Checks, from our own client-side log and the server's access log: no 5xx, every 201
// readable afterwards, the template limit (40) never exceeded and 403 once at it, the rolling
// window exact to the request both ways, latency, and the server's memory staying flat.
// Prints a table with PASS/FAIL; exits 1 on any FAIL. Not part of `npm test`.
// Run after `npm run build`:  npm run soak   or   node bench/soak.mjs --seconds 60
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedUrl } from './serve.mjs';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    accounts: { type: 'string', default: '10' },
    clients: { type: 'string', default: '5' },
  },
});
const SECONDS = Number(flags.seconds);
const ACCOUNTS = Number(flags.accounts);
const CLIENTS = Number(flags.clients);
if (!(SECONDS >= 10) || !(ACCOUNTS >= 1) || !(CLIENTS >= 1)) throw new Error('--seconds >= 10, --accounts >= 1, --clients >= 1');

/** The service's defaults; the soak server is started without any limit flag. */
const LIMITS = { reads: 120, writes: 30 };
const WINDOW_MS = 60_000;
const TEMPLATE_LIMIT = 40;
/** What each account's clients aim at together, per minute: near the limits, not over. */
const PACE = { reads: 110, writes: 28 };
/** Share of writes that create a template (the rest replace one). */
const CREATE_SHARE = 0.65;
const TARGETS = { rssGrowth: 1.3 };

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/reportctl.js');
const work = mkdtempSync(join(tmpdir(), 'reportctl-soak-'));
const db = join(work, 'service.db');
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
const running = new Set();

function cleanUp() {
  for (const child of running) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const pick = (items) => items[Math.floor(Math.random() * items.length)];

function admin(...args) {
  const result = spawnSync(process.execPath, [bin, 'admin', ...args, '--db', db, '--json'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** `reportctl serve` on a free port; `extra` flags, stderr lines to `onLine`. */
async function serve(extra, onLine = () => {}) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--json', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) onLine(line);
  });
  const url = await servedUrl(child);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      const result = await exited;
      running.delete(child);
      return result;
    },
  };
}

/** One request; never throws: a network failure is status 0. */
async function call(url, key, method, path, body) {
  const sentAt = performance.now();
  try {
    const response = await request(url + path, {
      method,
      dispatcher,
      headers: { apiKey: key, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body: text ? JSON.parse(text) : undefined, sentAt, doneAt: performance.now() };
  } catch (error) {
    return { status: 0, headers: {}, body: { error: 'NETWORK', message: String(error) }, sentAt, doneAt: performance.now() };
  }
}

/** RSS figures of a process, in kB, from /proc. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

async function inParallel(tasks, width) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------
// Set-up. At 30 writes a minute an account cannot reach 40 templates in a short run, so a
// set-up server with raised limits seeds each account first; the soak then pushes them over.
const expectedCreates = (PACE.writes * CREATE_SHARE * SECONDS) / 60;
const SEED = Math.max(0, Math.min(TEMPLATE_LIMIT - 2, Math.round(TEMPLATE_LIMIT - expectedCreates / 2)));
console.log(`soak: ${ACCOUNTS} accounts × ${CLIENTS} clients, ${SECONDS} s, default limits ${LIMITS.reads}/${LIMITS.writes} per minute, template limit ${TEMPLATE_LIMIT}`);
console.log(`set-up: ${SEED} templates seeded per account (about ${Math.round(expectedCreates)} more creates expected in the run)`);

const accounts = [];
for (let index = 0; index < ACCOUNTS; index++) {
  const issued = admin('accounts', 'create', '--name', `soak ${index}`, '--template-limit', String(TEMPLATE_LIMIT));
  accounts.push({ index, key: issued.apiKey, accountId: issued.accountId, ids: [], namesById: new Map(), log: [] });
}
const setupServer = await serve(['--no-access-log', '--reads-per-minute', '100000', '--writes-per-minute', '100000']);
const presets = (await call(setupServer.url, accounts[0].key, 'GET', '/api/v2/templates/presets?limit=100')).body.data;
const payloads = presets.map((preset) => preset.seedPayload);
let nameCounter = 0;
const newBody = () => ({ ...pick(payloads), name: `soak template ${++nameCounter}` });
await inParallel(
  accounts.flatMap((account) =>
    Array.from({ length: SEED }, () => async () => {
      const body = newBody();
      const created = await call(setupServer.url, account.key, 'POST', '/api/v2/templates', body);
      if (created.status !== 201) throw new Error(`seeding: ${created.status} ${JSON.stringify(created.body)}`);
      account.ids.push(created.body.id);
      account.namesById.set(created.body.id, new Set([body.name]));
    }),
  ),
  8,
);
await setupServer.stop();

// ---------------------------------------------------------------------------------------
// The soak itself, against a server with the default limits and its access log on.
const accessStatuses = new Map();
let serverErrors = 0;
const server = await serve([], (line) => {
  const status = / (\d{3}) [\d.]+ms$/.exec(line)?.[1];
  if (status) accessStatuses.set(status, (accessStatuses.get(status) ?? 0) + 1);
  else if (line.startsWith('error:')) serverErrors += 1;
});

const FORMULAS = ['NIR / (R + eps)', '(NIR - R) / (NIR + R + eps)', '(1 + L) * (NIR - R) / (NIR + R + L + eps)', 'NIR / R'];
/** Reads of another account's template ids that the rate limit let through. */
const crossAccount = { asked: 0, notFound: 0 };

/** One paced or burst request of `kind` for `account`, logged with its send and answer times. */
async function act(account, kind, phase) {
  let method = 'GET';
  let path;
  let body;
  let what;
  if (kind === 'reads') {
    const roll = Math.random();
    if (roll < 0.3) [path, what] = [`/api/v2/templates?limit=20&page=${1 + Math.floor(Math.random() * 3)}`, 'list'];
    else if (roll < 0.6 && account.ids.length > 0) [path, what] = [`/api/v2/templates/${pick(account.ids)}`, 'get'];
    else if (roll < 0.65 && ACCOUNTS > 1 && accounts.some((other) => other !== account && other.ids.length > 0)) {
      const others = accounts.filter((other) => other !== account && other.ids.length > 0);
      [path, what] = [`/api/v2/templates/${pick(pick(others).ids)}`, 'foreign'];
    } else if (roll < 0.8) [method, path, body, what] = ['POST', '/api/v2/templates/validate-formula', { formula: pick(FORMULAS) }, 'formula'];
    else [path, what] = [pick(['/api/v2/catalogs/report-types', '/api/v2/catalogs/statistics', '/api/v2/queues', '/api/v2/templates/presets']), 'catalog'];
  } else if (Math.random() < CREATE_SHARE || account.ids.length === 0) {
    [method, path, body, what] = ['POST', '/api/v2/templates', newBody(), 'create'];
  } else {
    [method, path, body, what] = ['PUT', `/api/v2/templates/${pick(account.ids)}`, newBody(), 'replace'];
  }
  const result = await call(server.url, account.key, method, path, body);
  const entry = { kind, what, phase, status: result.status, error: result.body?.error, sentAt: result.sentAt, doneAt: result.doneAt };
  account.log.push(entry);
  if (what === 'create' && result.status === 201) {
    account.ids.push(result.body.id);
    account.namesById.set(result.body.id, new Set([body.name]));
    entry.id = result.body.id;
  }
  if (what === 'replace' && result.status === 200) account.namesById.get(result.body.id)?.add(body.name);
  if (what === 'foreign' && result.status !== 429) {
    crossAccount.asked += 1;
    if (result.status === 404) crossAccount.notFound += 1;
  }
  return entry;
}

/** Allowed (non-429, answered) requests of a bucket in the 60 s before now, by send time. */
const inWindow = (account, kind, now) =>
  account.log.filter((entry) => entry.kind === kind && entry.status !== 429 && entry.status !== 0 && entry.sentAt > now - WINDOW_MS).length;

const started = performance.now();
const ends = started + SECONDS * 1000;
/** Each account's slots, evenly spaced at the pace (a little jitter, none that accumulates). */
function schedule(offset) {
  const slots = [];
  for (const kind of ['reads', 'writes']) {
    const gap = WINDOW_MS / PACE[kind];
    for (let at = started + offset + gap / 2; at < ends; at += gap) slots.push({ kind, at: at + (Math.random() - 0.5) * gap * 0.3 });
  }
  return slots.sort((a, b) => a.at - b.at);
}
async function client(account, slots) {
  for (let slot = slots.shift(); slot; slot = slots.shift()) {
    await sleep(slot.at - performance.now());
    if (performance.now() >= ends) return;
    await act(account, slot.kind, 'paced');
  }
}
/** Once per account, late in the run: more than the window has left, all at once. */
async function burst(account) {
  await sleep(started + SECONDS * 1000 * (0.7 + Math.random() * 0.1) - performance.now());
  const now = performance.now();
  const reads = LIMITS.reads - inWindow(account, 'reads', now) + 10;
  const writes = LIMITS.writes - inWindow(account, 'writes', now) + 5;
  account.burst = { reads, writes };
  await Promise.all([
    ...Array.from({ length: Math.max(reads, 10) }, () => act(account, 'reads', 'burst')),
    ...Array.from({ length: Math.max(writes, 5) }, () => act(account, 'writes', 'burst')),
  ]);
}

const memory = [];
const sampler = setInterval(() => memory.push({ at: performance.now() - started, ...memoryOf(server.pid) }), 1000);
await Promise.all(
  accounts.flatMap((account) => {
    const slots = schedule(Math.random() * (WINDOW_MS / PACE.reads));
    return [...Array.from({ length: CLIENTS }, () => client(account, slots)), burst(account)];
  }),
);
clearInterval(sampler);
const finalMemory = memoryOf(server.pid);
await sleep(300); // the last access-log lines
const stopped = await server.stop();

// ---------------------------------------------------------------------------------------
// Afterwards, on a fresh server over the same file: every 201 readable, the totals right.
const verifyServer = await serve(['--no-access-log', '--reads-per-minute', '100000', '--writes-per-minute', '100000']);
let unreadable = 0;
const totals = [];
for (const account of accounts) {
  const results = await inParallel(
    account.ids.map((id) => async () => {
      const read = await call(verifyServer.url, account.key, 'GET', `/api/v2/templates/${id}`);
      return read.status === 200 && read.body.id === id && account.namesById.get(id)?.has(read.body.name);
    }),
    8,
  );
  unreadable += results.filter((ok) => !ok).length;
  totals.push((await call(verifyServer.url, account.key, 'GET', '/api/v2/templates?limit=1')).body.total);
}
await verifyServer.stop();
await dispatcher.close();

// ---------------------------------------------------------------------------------------
// Checks.
const all = accounts.flatMap((account) => account.log);
const byStatus = new Map();
for (const entry of all) byStatus.set(entry.status, (byStatus.get(entry.status) ?? 0) + 1);
const count = (predicate) => all.filter(predicate).length;
const fiveXx = count((entry) => entry.status >= 500);
const network = count((entry) => entry.status === 0);
const latencyOf = (entries) => entries.map((entry) => entry.doneAt - entry.sentAt).sort((a, b) => a - b);
const latencies = latencyOf(all);
const pacedLatencies = latencyOf(all.filter((entry) => entry.phase === 'paced'));
const percentile = (sorted, p) => (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(1);

/**
 * The server stamps a request somewhere between our send and our answer. Over the limit for
 * sure: `limit + 1` allowed requests whose whole [send, answer] spans fit in one window.
 * A 429 wrong for sure: fewer than `limit` allowed requests could have been in its window.
 */
function windowChecks(account, kind) {
  const allowed = account.log.filter((entry) => entry.kind === kind && entry.status !== 429 && entry.status !== 0).sort((a, b) => a.sentAt - b.sentAt);
  const limit = LIMITS[kind];
  let overLimit = 0;
  let maxBySend = 0;
  for (let i = 0; i < allowed.length; i++) {
    let j = i;
    while (j + 1 < allowed.length && allowed[j + 1].sentAt - allowed[i].sentAt < WINDOW_MS) j++;
    maxBySend = Math.max(maxBySend, j - i + 1);
    if (i + limit < allowed.length) {
      const span = allowed.slice(i, i + limit + 1);
      if (Math.max(...span.map((entry) => entry.doneAt)) - allowed[i].sentAt < WINDOW_MS) overLimit += 1;
    }
  }
  let wrong429 = 0;
  for (const refused of account.log.filter((entry) => entry.kind === kind && entry.status === 429)) {
    const couldCount = allowed.filter((entry) => entry.doneAt > refused.sentAt - WINDOW_MS && entry.sentAt < refused.doneAt).length;
    if (couldCount < limit) wrong429 += 1;
  }
  return { overLimit, maxBySend, wrong429, refused: account.log.filter((entry) => entry.kind === kind && entry.status === 429).length };
}
const windows = accounts.map((account) => ({ reads: windowChecks(account, 'reads'), writes: windowChecks(account, 'writes') }));
const sum = (pick) => windows.reduce((total, window) => total + pick(window), 0);
const maxOf = (pick) => Math.max(...windows.map(pick));

const templateChecks = accounts.map((account, index) => {
  const creates = account.log.filter((entry) => entry.what === 'create');
  const created = creates.filter((entry) => entry.status === 201);
  const refused = creates.filter((entry) => entry.status === 403);
  const wrongCode = refused.filter((entry) => entry.error !== 'PLAN_LIMIT_EXCEEDED').length;
  // A 403 is wrong for sure if fewer creates than the room left could have landed before it.
  const room = TEMPLATE_LIMIT - SEED;
  const early = refused.filter((entry) => created.filter((made) => made.sentAt < entry.doneAt).length < room).length;
  // Once the last slot was surely taken, every create the rate limit let through must be a 403.
  const fullAt = created.map((made) => made.doneAt).sort((a, b) => a - b)[room - 1];
  const afterFull = fullAt === undefined ? [] : creates.filter((entry) => entry.sentAt > fullAt && entry.status !== 429);
  const total = SEED + created.length;
  return { total, listed: totals[index], refused: refused.length, wrongCode, early, afterFull: afterFull.length, notRefusedAfterFull: afterFull.filter((entry) => entry.status !== 403).length };
});

const memoryAfterWarmUp = memory.find((sample) => sample.at >= Math.min(10_000, (SECONDS * 1000) / 4))?.rss ?? NaN;
const peakRss = Math.max(finalMemory.hwm, ...memory.map((sample) => sample.hwm));
const rssGrowth = finalMemory.rss / memoryAfterWarmUp;
const accessTotal = [...accessStatuses.values()].reduce((a, b) => a + b, 0);
const accessAgrees = [...byStatus].every(([status, n]) => status === 0 || accessStatuses.get(String(status)) === n) && accessTotal === all.length - network;

const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const rows = [
  ['requests served', `${all.length - network} (${((all.length - network) / SECONDS).toFixed(1)}/s); by status ${[...byStatus].sort().map(([s, n]) => `${s}:${n}`).join(' ')}`, 'all answered', network === 0],
  ['access log agrees', `${accessTotal} lines; ${[...accessStatuses].sort().map(([s, n]) => `${s}:${n}`).join(' ')}`, 'same statuses as sent', accessAgrees],
  ['5xx', `${fiveXx} answered, ${serverErrors} error lines in the server log`, '0', fiveXx === 0 && serverErrors === 0],
  ['every 201 readable afterwards', `${accounts.reduce((n, a) => n + a.ids.length, 0) - unreadable} of ${accounts.reduce((n, a) => n + a.ids.length, 0)} (${SEED * ACCOUNTS} seeded)`, 'all, name as last written', unreadable === 0],
  ['template limit never exceeded', `max per account ${Math.max(...templateChecks.map((t) => t.total))}, listed ${Math.max(...totals)}`, `<= ${TEMPLATE_LIMIT}, list = seed + 201s`, templateChecks.every((t) => t.total <= TEMPLATE_LIMIT && t.listed === t.total)],
  [
    '403 PLAN_LIMIT_EXCEEDED at the limit',
    `${templateChecks.filter((t) => t.total === TEMPLATE_LIMIT).length} of ${ACCOUNTS} accounts full; ${templateChecks.reduce((n, t) => n + t.refused, 0)} refusals, ` +
      `${templateChecks.reduce((n, t) => n + t.notRefusedAfterFull, 0)} of ${templateChecks.reduce((n, t) => n + t.afterFull, 0)} creates after full not refused, ` +
      `${templateChecks.reduce((n, t) => n + t.early + t.wrongCode, 0)} early or mis-coded`,
    'once full, never before',
    templateChecks.every((t) => t.notRefusedAfterFull === 0 && t.early === 0 && t.wrongCode === 0) && templateChecks.some((t) => t.afterFull > 0),
  ],
  ['reads within the rolling window', `max ${maxOf((w) => w.reads.maxBySend)} per 60 s by send time; ${sum((w) => w.reads.overLimit)} windows over`, `<= ${LIMITS.reads}`, sum((w) => w.reads.overLimit) === 0],
  ['writes within the rolling window', `max ${maxOf((w) => w.writes.maxBySend)} per 60 s by send time; ${sum((w) => w.writes.overLimit)} windows over`, `<= ${LIMITS.writes}`, sum((w) => w.writes.overLimit) === 0],
  ['no 429 under the limit', `${sum((w) => w.reads.refused + w.writes.refused)} 429s, ${sum((w) => w.reads.wrong429 + w.writes.wrong429)} under the limit`, '0 under the limit', sum((w) => w.reads.wrong429 + w.writes.wrong429) === 0],
  ['burst reached 429', `${windows.filter((w) => w.reads.refused > 0 && w.writes.refused > 0).length} of ${ACCOUNTS} accounts saw 429 for reads and writes`, 'every account', windows.every((w) => w.reads.refused > 0 && w.writes.refused > 0)],
  ['isolation', `${crossAccount.notFound} of ${crossAccount.asked} reads of other accounts' ids answered 404`, 'all 404', crossAccount.notFound === crossAccount.asked],
  ['latency, all', `p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${percentile(latencies, 100)} ms`, 'report', true],
  ['latency, paced only', `p50 ${percentile(pacedLatencies, 50)} ms, p99 ${percentile(pacedLatencies, 99)} ms`, 'report', true],
  ['server peak RSS', `${mb(peakRss)} (VmHWM)`, 'report', true],
  ['memory flat', `RSS ${mb(memoryAfterWarmUp)} after warm-up, ${mb(finalMemory.rss)} at the end: ×${rssGrowth.toFixed(2)}`, `<= ×${TARGETS.rssGrowth}`, rssGrowth <= TARGETS.rssGrowth],
  ['clean shutdown', `SIGTERM → exit ${stopped.code}`, 'exit 0', stopped.code === 0],
];
const width = [0, 1, 2].map((column) => Math.max(...rows.map((row) => String(row[column]).length)));
console.log('');
for (const [name, value, target, ok] of rows) {
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(width[0])}  ${String(value).padEnd(width[1])}  ${target}`);
}
const perAccount = accounts.map((account, index) => {
  const paced = account.log.filter((entry) => entry.phase === 'paced');
  return `  #${index}: ${paced.filter((e) => e.kind === 'reads').length} reads + ${paced.filter((e) => e.kind === 'writes').length} writes paced, burst ${account.burst?.reads ?? 0}+${account.burst?.writes ?? 0}, ${templateChecks[index].total} templates, 429s ${windows[index].reads.refused}/${windows[index].writes.refused}, 403s ${templateChecks[index].refused}`;
});
console.log(`\nper account:\n${perAccount.join('\n')}`);
const failed = rows.some((row) => !row[3]);
console.log(`\n${failed ? 'FAIL' : 'PASS'}: soak of ${SECONDS} s`);
process.exitCode = failed ? 1 : 0;
