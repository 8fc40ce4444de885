// `templates list --all --json` against the embedded service at 30 reads per minute, for
// N = 1,000 and 5,000 templates: wall time against what the rate limit allows, peak RSS,
// and 429s seen in the access log. Then `queue-runs watch` on an unchanged run: requests
// per poll. Prints ratios and PASS/FAIL against the targets; exits 1 on FAIL.
// Run after `npm run build`: node bench/list-all.mjs   (takes a few minutes: it waits on
// the rate limit on purpose). Not part of `npm test`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';
import { adminOf, servedUrl, spawnServe } from './serve.mjs';

const READS_PER_MINUTE = 30;
const PAGE_SIZE = 100;
const SIZES = [1_000, 5_000];
const TARGETS = { wallRatio: 1.2, rssRatio: 1.3, tooMany: 0, requestsPerPoll: 1 };
const WATCH = { interval: 1, timeout: 5 };

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/reportctl.js');
const work = mkdtempSync(join(tmpdir(), 'reportctl-bench-'));
const db = join(work, 'service.db');

/** The access log, one entry per request, stamped with our own clock when it arrived. */
const accessLog = [];
const { server, cleanUp } = spawnServe(
  bin,
  db,
  work,
  ['--reads-per-minute', String(READS_PER_MINUTE), '--writes-per-minute', '100000'],
  'pipe',
);
let pending = '';
server.stderr.setEncoding('utf8').on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) accessLog.push({ at: Date.now(), line });
});
const baseUrl = await servedUrl(server);

const admin = adminOf(bin, db);
const newAccount = () => admin('accounts', 'create', '--template-limit', '100000');

async function call(key, method, path, body) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { apiKey: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** Runs the built CLI; wall time, peak RSS (kB, from the child itself at exit) and its output. */
function runCli(args, env) {
  const rssFile = join(work, `rss-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const probe = `data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)))`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', probe, bin, ...args], {
      env: cleanEnv({ ...env, REPORTCTL_CONFIG_DIR: work, NO_COLOR: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = [];
    let stderr = '';
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let maxRssKb = NaN;
      try {
        maxRssKb = Number(readFileSync(rssFile, 'utf8'));
      } catch {
        // no probe output: the child died before exit handlers ran
      }
      resolve({ code, wallMs, maxRssKb, stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    });
  });
}

const fmt = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
let failed = false;

// Presets are read with an account of their own, so the measured accounts start with an
// empty read window.
const helper = newAccount();
const presets = await call(helper.apiKey, 'GET', '/api/v2/templates/presets?limit=100');
const seed = presets.data.find((preset) => preset.reportCategory === 'general')?.seedPayload ?? presets.data[0].seedPayload;

const results = [];
for (const size of SIZES) {
  const account = newAccount();
  const createStarted = performance.now();
  for (let made = 0; made < size; ) {
    const batch = Math.min(100, size - made);
    await Promise.all(Array.from({ length: batch }, (_, i) => call(account.apiKey, 'POST', '/api/v2/templates', { ...seed, name: `bench ${made + i}` })));
    made += batch;
  }
  const createMs = performance.now() - createStarted;

  const logFrom = accessLog.length;
  const run = await runCli(['templates', 'list', '--all', '--json'], { REPORTCTL_BASE_URL: baseUrl, REPORTCTL_API_KEY: account.apiKey });
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last access-log lines
  if (run.code !== 0) throw new Error(`templates list --all exited ${run.code}: ${run.stderr}`);
  const items = JSON.parse(run.stdout).data;
  const unique = new Set(items.map((item) => item.id)).size;
  const during = accessLog.slice(logFrom).map((entry) => entry.line);
  const pages = Math.ceil(size / PAGE_SIZE);
  const allowedMs = Math.floor((pages - 1) / READS_PER_MINUTE) * 60_000;
  results.push({
    size,
    pages,
    createMs,
    wallMs: run.wallMs,
    allowedMs,
    maxRssKb: run.maxRssKb,
    tooMany: during.filter((line) => line.includes(' 429 ')).length,
    requests: during.filter((line) => line.includes(' GET /api/v2/templates')).length,
    items: items.length,
    unique,
  });
}

console.log(`templates list --all --json at ${READS_PER_MINUTE} reads/min (page size ${PAGE_SIZE})`);
console.log(cleanEnvNote());
console.log('      N  pages  requests  items  unique   wall s  allowed s  wall/allowed  peak RSS MB  429s   (created in s)');
for (const r of results) {
  console.log(
    `${String(r.size).padStart(7)}  ${String(r.pages).padStart(5)}  ${String(r.requests).padStart(8)}  ${String(r.items).padStart(5)}  ${String(r.unique).padStart(6)}` +
      `  ${fmt(r.wallMs / 1000, 1).padStart(7)}  ${fmt(r.allowedMs / 1000, 0).padStart(9)}  ${(r.allowedMs > 0 ? fmt(r.wallMs / r.allowedMs) : 'n/a').padStart(12)}` +
      `  ${fmt(r.maxRssKb / 1024, 1).padStart(11)}  ${String(r.tooMany).padStart(4)}   (${fmt(r.createMs / 1000, 1)})`,
  );
}
for (const r of results) {
  if (r.items !== r.size || r.unique !== r.size) {
    console.log(`FAIL N=${r.size}: ${r.items} items, ${r.unique} unique`);
    failed = true;
  }
  if (r.allowedMs > 0) {
    const ok = r.wallMs / r.allowedMs <= TARGETS.wallRatio;
    failed ||= !ok;
    console.log(`${verdict(ok)} N=${r.size}: wall / allowed = ${fmt(r.wallMs / r.allowedMs)} (target <= ${TARGETS.wallRatio})`);
  } else {
    console.log(`info N=${r.size}: ${r.pages} pages fit in one window; no wait is needed (wall ${fmt(r.wallMs / 1000, 1)} s)`);
  }
  const ok = r.tooMany <= TARGETS.tooMany;
  failed ||= !ok;
  console.log(`${verdict(ok)} N=${r.size}: 429 responses = ${r.tooMany} (target ${TARGETS.tooMany})`);
}
const rssRatio = results[1].maxRssKb / results[0].maxRssKb;
const rssOk = rssRatio <= TARGETS.rssRatio;
failed ||= !rssOk;
console.log(`${verdict(rssOk)} peak RSS N=${SIZES[1]} / N=${SIZES[0]} = ${fmt(rssRatio)} (target ~1, <= ${TARGETS.rssRatio})`);

// queue-runs watch on a run that does not change: every poll should be one request.
const watcher = newAccount();
const queue = admin('queues', 'create', '--account', watcher.accountId, '--name', 'bench', '--step', 'lot-1:counting', '--step', 'lot-2:path');
const queueRun = admin('queue-runs', 'enqueue', '--queue', queue.id);
const logFrom = accessLog.length;
const watch = await runCli(
  ['queue-runs', 'watch', queueRun.id, '--interval', String(WATCH.interval), '--timeout', String(WATCH.timeout)],
  { REPORTCTL_BASE_URL: baseUrl, REPORTCTL_API_KEY: watcher.apiKey },
);
await new Promise((resolve) => setTimeout(resolve, 200));
if (watch.code !== 8) throw new Error(`queue-runs watch should time out (exit 8), got ${watch.code}: ${watch.stderr}`);
const watchRequests = accessLog.slice(logFrom).filter((entry) => entry.line.includes(' GET /api/v2/queue-runs')).length;
// Polls at 0, 1, ..., timeout - 1 s, and one last at the deadline.
const polls = Math.ceil(WATCH.timeout / WATCH.interval) + 1;
const perPoll = watchRequests / polls;
const watchOk = perPoll === TARGETS.requestsPerPoll;
failed ||= !watchOk;
console.log(
  `${verdict(watchOk)} queue-runs watch, unchanged run, --interval ${WATCH.interval} --timeout ${WATCH.timeout}: ` +
    `${watchRequests} requests for ${polls} polls = ${fmt(perPoll)} per interval (target exactly ${TARGETS.requestsPerPoll})`,
);

cleanUp();
process.exit(failed ? 1 : 0);
