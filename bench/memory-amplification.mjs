// Can accounts push `serve` into gigabytes of memory within the default read limit? Each
// attacking account fills its plan (100 templates) with near-maximal documents (~250 KiB, a
// page of 100 is ~25 MB). Two attacks, each with serve's peak RSS (VmHWM from /proc, reset
// before it):
// 1. one account's 8 loops GET /api/v2/templates?limit=100 at once for a while; meanwhile
//    another account lists its own templates every 250 ms (its latency is printed);
// 2. many accounts (11 by default) each open 4 connections for that page and stop reading
//    after the first byte: the answers cannot drain. Prints how long each account's own
//    requests are refused (its in-flight slots held) and the other account's answers.
// 3. two accounts each keep 4 connections on that page, reading each about 190 KB/s (slow
//    enough that a page takes minutes, steady enough never to stall 10 s), asking again when
//    an answer ends; meanwhile a third account asks for its own 100-template page every
//    250 ms. Prints the third account's success rate and the slow accounts' outcomes.
// PASS/FAIL against the targets (peak RSS < 512 MB in all, the other account's p99 < 100 ms
// in the first, the third account's pages ≥ 90% answered 200 in the third); exits 1 on FAIL.
// Linux only.
//
//   npm run build && node bench/memory-amplification.mjs            # this checkout
//   node bench/memory-amplification.mjs --root /work/main            # another build, for "before"
//   options: --seconds 20  --template-kib 940,250 (the first size the server accepts is used)
//            --accounts 11 --hold-seconds 30 (how long the second attack's readers stay stalled)
//            --slow-seconds 60 (how long the third attack lasts)  --attacks 1,2,3 (which to run)
// Not part of `npm test`: it takes a few minutes and wants the machine to itself.
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { adminOf, servedUrl, spawnServe } from './serve.mjs';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    seconds: { type: 'string', default: '20' },
    'template-kib': { type: 'string', default: '940,250' },
    // By default the loops ask again at once after a 429, as a hostile client would; with this
    // they wait Retry-After first, as reportctl's own client does.
    'honour-retry-after': { type: 'boolean', default: false },
    accounts: { type: 'string', default: '11' },
    'hold-seconds': { type: 'string', default: '30' },
    'slow-seconds': { type: 'string', default: '60' },
    attacks: { type: 'string', default: '1,2,3' },
  },
});
const TEMPLATES = 100;
const LOOPS = 8;
const OTHER_EVERY_MS = 250;
const TARGETS = { peakRssMb: 512, otherP99Ms: 100, thirdAccountSuccess: 0.9 };
const attacks = new Set(args.attacks.split(',').map(Number));
const SLOW_READ_BYTES_PER_SECOND = 190_000;
const ELEMENT_NOTE = 'n'.repeat(1000);

const bin = join(resolve(args.root), 'bin/reportctl.js');
const requireRoot = createRequire(join(resolve(args.root), 'package.json'));
const { Database } = requireRoot('./bin/code-cache.js').loadCompiled(join(resolve(args.root), 'dist/embedded.cjs')).sqliteDriver();
const work = mkdtempSync(join(tmpdir(), 'reportctl-bench-'));
const db = join(work, 'service.db');
// Reads at the default limit (the attack is "within the default limits"); writes raised only
// so that the setup does not take minutes.
const { server, cleanUp } = spawnServe(bin, db, work, ['--no-access-log', '--writes-per-minute', '100000'], 'inherit');
const baseUrl = await servedUrl(server);
const admin = adminOf(bin, db);

async function call(key, method, path, body) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { apiKey: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** A valid template of about `kib` KiB: a preset's fields plus layout elements with a 1000-character note each. */
function templateOf(seedPayload, kib, name) {
  const element = (i) => ({ type: 'text', x: 0, y: 0, width: 0.1, height: 0.1, note: ELEMENT_NOTE, i });
  const perElement = JSON.stringify(element(0)).length + 1;
  const count = Math.max(1, Math.floor((kib * 1024 - 1024) / perElement));
  const half = Math.ceil(count / 2);
  const elements = Array.from({ length: count }, (_, i) => element(i));
  return {
    ...seedPayload,
    name,
    layouts: { portrait: { elements: elements.slice(0, half) }, landscape: { elements: elements.slice(half) } },
  };
}

const memory = (field) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8').split('\n').find((line) => line.startsWith(field)))[1]) / 1024;

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// Setup: the attacker's account at its plan limit with near-maximal templates.
const attacker = admin('accounts', 'create', '--template-limit', String(TEMPLATES));
const other = admin('accounts', 'create');
const presets = JSON.parse((await call(attacker.apiKey, 'GET', '/api/v2/templates/presets?limit=100')).text).data;
const seed = presets.find((preset) => preset.seedPayload.reportCategory === 'general').seedPayload;
let kib;
for (const candidate of args['template-kib'].split(',').map(Number)) {
  const answer = await call(attacker.apiKey, 'POST', '/api/v2/templates', templateOf(seed, candidate, 'near-max 0'));
  if (answer.status === 201) {
    kib = candidate;
    break;
  }
  console.log(`a ${candidate} KiB template is refused: ${answer.status} ${answer.text.slice(0, 200)}`);
}
if (kib === undefined) throw new Error('no template size in --template-kib is accepted');
for (let i = 1; i < TEMPLATES; i++) {
  const answer = await call(attacker.apiKey, 'POST', '/api/v2/templates', templateOf(seed, kib, `near-max ${i}`));
  if (answer.status !== 201) throw new Error(`template ${i}: ${answer.status} ${answer.text.slice(0, 200)}`);
}
await call(other.apiKey, 'POST', '/api/v2/templates', { ...seed, name: 'the other account' });
// The second attack's accounts: copies of the attacker's templates, in SQL (the API would take minutes).
// Accounts of their own: the first attack spends the attacker's reads for a minute.
const stallers = Array.from({ length: Math.max(3, Number(args.accounts)) }, () => admin('accounts', 'create', '--template-limit', String(TEMPLATES)));
{
  const sqlite = new Database(db);
  sqlite.pragma('busy_timeout = 10000');
  const copy = sqlite.prepare(`
    INSERT INTO templates (id, account_id, user_id, analysis_type, report_type, report_category, document, created_at, updated_at)
    SELECT :prefix || substr(id, 9), :accountId, :userId, analysis_type, report_type, report_category,
           replace(replace(document, '"id":"' || id, '"id":"' || :prefix || substr(id, 9)), :fromUser, :userId), created_at, updated_at
    FROM templates WHERE account_id = :fromAccount ORDER BY seq`);
  sqlite.transaction(() => {
    stallers.forEach(({ accountId, userId }, index) => {
      copy.run({ prefix: (index + 1).toString(16).padStart(8, '0'), accountId, userId, fromUser: attacker.userId, fromAccount: attacker.accountId });
    });
  })();
  sqlite.close();
}
const afterSetupMb = memory('VmRSS');
// Peak RSS from here on: writing 5 to clear_refs resets VmHWM to the current RSS.
writeFileSync(`/proc/${server.pid}/clear_refs`, '5');

// The attack, and the other account's requests meanwhile.
const statuses = new Map();
let stop = false;
const loop = async () => {
  while (!stop) {
    try {
      const response = await fetch(`${baseUrl}/api/v2/templates?limit=100`, { headers: { apiKey: attacker.apiKey } });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 429 && args['honour-retry-after']) {
        await new Promise((wake) => setTimeout(wake, Number(response.headers.get('retry-after')) * 1000));
      }
    } catch {
      statuses.set('error', (statuses.get('error') ?? 0) + 1);
    }
  }
};
/** The other account's requests until `until()` says stop: latencies and statuses. */
async function otherAccountLoop(until) {
  const latencies = [];
  const answers = new Map();
  while (!until()) {
    const started = performance.now();
    const answer = await call(other.apiKey, 'GET', '/api/v2/templates?limit=20');
    latencies.push(performance.now() - started);
    answers.set(answer.status, (answers.get(answer.status) ?? 0) + 1);
    await new Promise((wake) => setTimeout(wake, OTHER_EVERY_MS));
  }
  return { latencies: latencies.sort((a, b) => a - b), answers };
}
const show = (map) => [...map].map(([status, n]) => `${status}×${n}`).join(' ');
console.log(`build: ${bin}`);
let peakMb = 0;
let p99 = 0;
let stallPeakMb = 0;
let thirdSuccess = 1;
if (attacks.has(1)) {
// The same requests before the attack: how fast this machine answers them when nothing else runs.
const quietUntil = Date.now() + 5000;
const quiet = await otherAccountLoop(() => Date.now() > quietUntil);
const otherDuring = otherAccountLoop(() => stop);
const running = [...Array.from({ length: LOOPS }, loop), otherDuring];
await new Promise((wake) => setTimeout(wake, Number(args.seconds) * 1000));
stop = true;
await Promise.all(running);
peakMb = memory('VmHWM');

const { latencies: otherLatencies, answers: otherStatuses } = await otherDuring;
const p50 = percentile(otherLatencies, 50);
const p90 = percentile(otherLatencies, 90);
p99 = percentile(otherLatencies, 99);
console.log(
  `${TEMPLATES} templates of ~${kib} KiB; ${LOOPS} loops of GET /api/v2/templates?limit=100 for ${args.seconds} s` +
    (args['honour-retry-after'] ? ', waiting Retry-After after a 429' : ', asking again at once after a 429'),
);
console.log(`attacker answers: ${show(statuses)}`);
console.log(`serve RSS after setup: ${afterSetupMb.toFixed(0)} MB; peak during the attack: ${peakMb.toFixed(0)} MB (target < ${TARGETS.peakRssMb})`);
console.log(
  `other account: ${otherLatencies.length} requests (${show(otherStatuses)}), p50 ${p50.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${otherLatencies.at(-1).toFixed(1)} ms (target p99 < ${TARGETS.otherP99Ms})`,
);
console.log(
  `other account before the attack: ${quiet.latencies.length} requests, p50 ${percentile(quiet.latencies, 50).toFixed(1)} ms, p99 ${percentile(quiet.latencies, 99).toFixed(1)} ms (this machine's noise floor)`,
);
}

// The second attack: every staller account's 4 connections stop reading after the first byte.
/** Sends the page request and pauses the socket at the first byte of the answer. */
function stalledRequest(apiKey) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET /api/v2/templates?limit=100 HTTP/1.1\r\nHost: ${hostname}:${port}\r\napiKey: ${apiKey}\r\n\r\n`);
    });
    socket.once('data', (first) => {
      socket.pause();
      resolve({ socket, status: Number(first.toString('latin1').split(' ')[1]) });
    });
    socket.on('error', () => resolve({ socket, status: 'error' }));
  });
}
if (attacks.has(2)) {
await new Promise((wake) => setTimeout(wake, 2000));
writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
const beforeStallMb = memory('VmRSS');
/** Seconds from `since` until the account's own small request is answered 200 again (its slots freed), or null. */
async function lockedFor(apiKey, since, until) {
  for (;;) {
    const answer = await call(apiKey, 'GET', '/api/v2/templates/presets?limit=1');
    if (answer.status === 200) return (performance.now() - since) / 1000;
    if (performance.now() > until) return null;
    // Well within the read limit (120 a minute) over the whole hold.
    await new Promise((wake) => setTimeout(wake, 500));
  }
}
const holdUntil = performance.now() + Number(args['hold-seconds']) * 1000;
/** The account's 4 stalled connections, then how long after their first bytes it is served again. */
async function stallAccount({ apiKey }) {
  const connections = await Promise.all(Array.from({ length: 4 }, () => stalledRequest(apiKey)));
  return { connections, lockedSeconds: await lockedFor(apiKey, performance.now(), holdUntil) };
}
const stalls = await Promise.all(stallers.map(stallAccount));
const stalled = stalls.flatMap(({ connections }) => connections);
const firstBytes = new Map();
for (const { status } of stalled) firstBytes.set(status, (firstBytes.get(status) ?? 0) + 1);
const locks = stalls.filter(({ connections }) => connections.some(({ status }) => status === 200)).map(({ lockedSeconds }) => lockedSeconds);
const otherDuringStall = await call(other.apiKey, 'GET', '/api/v2/templates?limit=20');
stallPeakMb = memory('VmHWM');
for (const { socket } of stalled) socket.destroy();
const freed = locks.filter((seconds) => seconds !== null);
const range = (values) => (values.length === 0 ? '-' : `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} s`);
console.log(
  `${stallers.length} accounts × 4 connections on GET /api/v2/templates?limit=100, paused after the first byte: ` +
    `first answers ${show(firstBytes)}`,
);
console.log(
  `  the ${locks.length} accounts with a stalled page served again (a small request answered 200) ${range(freed)} after the first bytes` +
    (freed.length < locks.length ? `; ${locks.length - freed.length} still refused at ${args['hold-seconds']} s` : '') +
    `; the other account meanwhile: ${otherDuringStall.status}`,
);
console.log(`  serve RSS before: ${beforeStallMb.toFixed(0)} MB; peak: ${stallPeakMb.toFixed(0)} MB (target < ${TARGETS.peakRssMb})`);
}

// The third attack: two accounts read their pages slowly on 4 connections each, a third asks for its own.
/**
 * One connection of a slow reader: asks for the page, reads it at about 190 KB/s, and asks
 * again on a new connection when the answer ends or the server drops it. Counts the outcomes.
 */
async function slowReader(apiKey, until, outcomes) {
  const { hostname, port } = new URL(baseUrl);
  while (performance.now() < until) {
    const outcome = await new Promise((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`GET /api/v2/templates?limit=100 HTTP/1.1\r\nHost: ${hostname}:${port}\r\napiKey: ${apiKey}\r\nConnection: close\r\n\r\n`);
      });
      let head = '';
      let received = 0;
      let length = Infinity;
      socket.on('data', (chunk) => {
        received += chunk.length;
        if (head === '') head = chunk.toString('latin1', 0, Math.min(chunk.length, 400));
        const match = /content-length: (\d+)/i.exec(head);
        if (match) length = Number(match[1]) + head.indexOf('\r\n\r\n') + 4;
        if (received >= length || performance.now() > until) {
          socket.destroy();
          return;
        }
        socket.pause();
        setTimeout(() => socket.resume(), (chunk.length / SLOW_READ_BYTES_PER_SECOND) * 1000);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        const status = head.split(' ')[1] ?? 'none';
        resolve(status !== '200' ? status : received >= length ? '200 whole' : performance.now() > until ? '200 still reading' : '200 dropped');
      });
    });
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (!String(outcome).startsWith('200')) await new Promise((wake) => setTimeout(wake, 1000));
  }
}
if (attacks.has(3)) {
  await new Promise((wake) => setTimeout(wake, 2000));
  writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  const [slow, slower, third] = stallers;
  const until = performance.now() + Number(args['slow-seconds']) * 1000;
  const slowOutcomes = new Map();
  const readers = [slow, slower].flatMap(({ apiKey }) => Array.from({ length: 4 }, () => slowReader(apiKey, until, slowOutcomes)));
  // The slow readers' pages are read from the database first.
  await new Promise((wake) => setTimeout(wake, 5000));
  const thirdStatuses = new Map();
  while (performance.now() < until) {
    const answer = await call(third.apiKey, 'GET', '/api/v2/templates?limit=100');
    thirdStatuses.set(answer.status, (thirdStatuses.get(answer.status) ?? 0) + 1);
    await new Promise((wake) => setTimeout(wake, OTHER_EVERY_MS));
  }
  await Promise.all(readers);
  const slowPeakMb = memory('VmHWM');
  const asked = [...thirdStatuses.values()].reduce((sum, n) => sum + n, 0);
  thirdSuccess = (thirdStatuses.get(200) ?? 0) / Math.max(1, asked);
  stallPeakMb = Math.max(stallPeakMb, slowPeakMb);
  console.log(`2 accounts × 4 connections reading GET /api/v2/templates?limit=100 at ~${SLOW_READ_BYTES_PER_SECOND / 1000} KB/s each for ${args['slow-seconds']} s: ${show(slowOutcomes)}`);
  console.log(
    `  a third account's 100-template pages meanwhile: ${show(thirdStatuses)}, ${(thirdSuccess * 100).toFixed(0)}% answered 200 (target ≥ ${TARGETS.thirdAccountSuccess * 100}%)`,
  );
  console.log(`  serve RSS peak: ${slowPeakMb.toFixed(0)} MB (target < ${TARGETS.peakRssMb})`);
}

const pass = peakMb < TARGETS.peakRssMb && p99 < TARGETS.otherP99Ms && stallPeakMb < TARGETS.peakRssMb && thirdSuccess >= TARGETS.thirdAccountSuccess;
console.log(pass ? 'PASS' : 'FAIL');
cleanUp();
process.exitCode = pass ? 0 : 1;
