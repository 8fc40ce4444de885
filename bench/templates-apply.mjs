// `templates apply` over a folder of 1,000 templates against the embedded service with its
// limits raised: requests per template changed (counted in serve's access log) and wall time,
// for a first apply (1,000 to create), an edit of 100 files (100 to replace) and a run with
// nothing to do. An unchanged template must cost no write and no read of its own beyond the
// listing (one request per 100 templates). Prints PASS/FAIL; exits 1 on FAIL.
// Run after `npm run build`: node bench/templates-apply.mjs   (well under a minute). Not part of `npm test`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminOf, servedUrl, spawnServe } from './serve.mjs';

const SIZE = 1_000;
const EDITED = 100;
const PAGE_SIZE = 100;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/reportctl.js');
const work = mkdtempSync(join(tmpdir(), 'reportctl-bench-'));
const db = join(work, 'service.db');
const folder = join(work, 'templates');

const accessLog = [];
const { server, cleanUp } = spawnServe(bin, db, work, ['--reads-per-minute', '1000000', '--writes-per-minute', '1000000'], 'pipe');
let pending = '';
server.stderr.setEncoding('utf8').on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop();
  accessLog.push(...lines);
});
const baseUrl = await servedUrl(server);
const account = adminOf(bin, db)('accounts', 'create', '--template-limit', '100000');
const env = { ...process.env, REPORTCTL_BASE_URL: baseUrl, REPORTCTL_API_KEY: account.apiKey, REPORTCTL_CONFIG_DIR: work, NO_COLOR: '1' };

function runCli(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, wallMs: performance.now() - started, stdout, stderr }));
  });
}

const presets = await (await fetch(`${baseUrl}/api/v2/templates/presets?limit=100`, { headers: { apiKey: account.apiKey } })).json();
const seed = presets.data.find((preset) => preset.reportCategory === 'general').seedPayload;
mkdirSync(folder);
for (let n = 0; n < SIZE; n++) {
  writeFileSync(join(folder, `t-${String(n).padStart(4, '0')}.json`), JSON.stringify({ ...seed, name: `bench template ${n}` }, null, 2) + '\n');
}

/** One apply: its wall time and the requests the service saw, by kind. */
async function measure(label, changed) {
  await new Promise((resolve) => setTimeout(resolve, 200)); // earlier requests' access-log lines
  const from = accessLog.length;
  const run = await runCli(['templates', 'apply', folder, '--json']);
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last access-log lines
  if (run.code !== 0) throw new Error(`${label}: apply exited ${run.code}: ${run.stderr}`);
  const result = JSON.parse(run.stdout);
  const lines = accessLog.slice(from).map((line) => line.split(' '));
  const writes = lines.filter(([, method]) => method !== 'GET').length;
  const reads = lines.length - writes;
  const errors = lines.filter(([, , , status]) => Number(status) >= 400).length;
  const done = result.created.length + result.replaced.length + result.deleted.length;
  return { label, changed, done, requests: lines.length, reads, writes, errors, wallMs: run.wallMs };
}

const results = [await measure('first apply: create 1,000', SIZE)];
for (let n = 0; n < EDITED; n++) {
  const file = join(folder, `t-${String(n * (SIZE / EDITED)).padStart(4, '0')}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), mapResolution: 300 }, null, 2) + '\n');
}
results.push(await measure(`edit ${EDITED} files: replace ${EDITED}`, EDITED));
results.push(await measure('nothing changed', 0));
cleanUp();

const pages = Math.ceil(SIZE / PAGE_SIZE);
let failed = false;
console.log(`templates apply over ${SIZE} templates (limits raised; requests from serve's access log)\n`);
console.log('run                          changed  requests  reads  writes  errors  req/changed  wall');
for (const row of results) {
  const perChanged = row.changed === 0 ? 'n/a' : (row.requests / row.changed).toFixed(3);
  console.log(
    `${row.label.padEnd(28)} ${String(row.changed).padStart(7)} ${String(row.requests).padStart(9)} ${String(row.reads).padStart(6)} ${String(row.writes).padStart(7)} ${String(row.errors).padStart(7)} ${perChanged.padStart(12)}  ${(row.wallMs / 1000).toFixed(2)} s`,
  );
  // One write per change; reads: the listing's pages, plus at most the three catalogs.
  const ok = row.done === row.changed && row.writes === row.changed && row.errors === 0 && row.reads <= pages + 3;
  if (!ok) {
    failed = true;
    console.log(`  FAIL: expected ${row.changed} writes, no errors, at most ${pages + 3} reads`);
  }
}
const idle = results.at(-1);
console.log(`\nunchanged run: ${idle.writes} writes and ${idle.reads} reads for ${SIZE} templates (the listing is ${pages} pages): ${idle.writes === 0 && idle.reads <= pages + 3 ? 'PASS' : 'FAIL'}`);
process.exitCode = failed ? 1 : 0;
