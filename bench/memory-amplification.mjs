// Issue 17, item 2: can one account push `serve` into gigabytes of memory within the default
// read limit? One account fills its plan (100 templates) with near-maximal documents, then 8
// loops GET /api/v2/templates?limit=100 at once for a while; meanwhile another account lists
// its own templates every 250 ms. Prints serve's peak RSS during the attack (VmHWM from
// /proc, reset after setup) and the other account's latency; PASS/FAIL against the targets
// (peak RSS < 512 MB, other account's p99 < 100 ms); exits 1 on FAIL. Linux only.
//
//   npm run build && node bench/memory-amplification.mjs            # this checkout
//   node bench/memory-amplification.mjs --root /work/main            # another build, for "before"
//   options: --seconds 20  --template-kib 940,250 (the first size the server accepts is used)
// Not part of `npm test`: it takes about a minute and wants the machine to itself.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { adminOf, servedUrl, spawnServe } from './serve.mjs';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    seconds: { type: 'string', default: '20' },
    'template-kib': { type: 'string', default: '940,250' },
    // By default the loops ask again at once after a 429, as a hostile client would; with this
    // they wait Retry-After first, as reportctl's own client does.
    'honour-retry-after': { type: 'boolean', default: false },
  },
});
const TEMPLATES = 100;
const LOOPS = 8;
const OTHER_EVERY_MS = 250;
const TARGETS = { peakRssMb: 512, otherP99Ms: 100 };
const ELEMENT_NOTE = 'n'.repeat(1000);

const bin = join(resolve(args.root), 'bin/reportctl.js');
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
// The same requests before the attack: how fast this machine answers them when nothing else runs.
const quietUntil = Date.now() + 5000;
const quiet = await otherAccountLoop(() => Date.now() > quietUntil);
const otherDuring = otherAccountLoop(() => stop);
const running = [...Array.from({ length: LOOPS }, loop), otherDuring];
await new Promise((wake) => setTimeout(wake, Number(args.seconds) * 1000));
stop = true;
await Promise.all(running);
const peakMb = memory('VmHWM');

const { latencies: otherLatencies, answers: otherStatuses } = await otherDuring;
const p50 = percentile(otherLatencies, 50);
const p90 = percentile(otherLatencies, 90);
const p99 = percentile(otherLatencies, 99);
const show = (map) => [...map].map(([status, n]) => `${status}×${n}`).join(' ');
console.log(`build: ${bin}`);
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
const pass = peakMb < TARGETS.peakRssMb && p99 < TARGETS.otherP99Ms;
console.log(pass ? 'PASS' : 'FAIL');
cleanUp();
process.exitCode = pass ? 0 : 1;
