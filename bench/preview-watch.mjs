// `templates preview FILE --watch` (the built binary): how long a save takes to reach an open
// page, and what the process holds while a page has stopped reading. Each figure beside a
// baseline from the same run: the time `templates validate --offline` takes on the same file in
// a process of its own (the check the preview repeats at every save, plus a start-up), and the
// watch's own RSS before the saves.
//
//   node bench/preview-watch.mjs [saves]      # default 30 timed saves per size; run `npm run build` first
//
// Linux only (RSS from /proc). Not part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const BIN = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
const saves = Number(process.argv[2] ?? 30);
const work = mkdtempSync(join(tmpdir(), 'reportctl-watch-bench-'));
const file = join(work, 'template.json');

const presets = JSON.parse(readFileSync(new URL('../test/fixtures/parity/007-listPresets.json', import.meta.url), 'utf8')).answer.body.data;
const ndvi = presets.find((preset) => preset.id === 'preset-counting-vigor-ndvi').seedPayload;
/**
 * A valid template of a little under `kib` KiB (256 is the most the service stores): elements
 * with a long free-form property each (what fills a real one), the same on each page.
 */
function template(name, kib) {
  const perPage = Math.max(1, Math.round((kib * 1024) / 2300));
  const elements = Array.from({ length: perPage }, (_, i) => ({ type: 'text', x: (i % 20) / 20, y: Math.floor(i / 20) / 10, width: 0.05, height: 0.1, text: 'x'.repeat(1000) }));
  return JSON.stringify({ ...ndvi, reportTypeId: '59acdf2b-03bf-48c6-b5be-3c792c21b29b', name, layouts: { portrait: { elements }, landscape: { elements } } });
}

const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

writeFileSync(file, template('start', 20));
const child = spawn(process.execPath, [BIN, 'templates', 'preview', file, '--watch'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve) => child.stdout.setEncoding('utf8').once('data', (line) => resolve(line.trim())));
const { origin, hash } = new URL(url);
const { token } = await (await fetch(`${origin}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: hash.slice(6) }) })).json();
const authorization = `Bearer ${token}`;
const atStart = rssKiB(child.pid);

// A page that reads: resolves `seen(name)` when a picture of that name arrives.
const waiting = new Map();
let buffer = '';
request(`${origin}/events`, { headers: { authorization } }, (response) => {
  response.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const name = /"name":"([^"]*)"/.exec(buffer.slice(0, end))?.[1];
      buffer = buffer.slice(end + 2);
      waiting.get(name)?.();
    }
  });
}).end();
const seen = (name) => new Promise((resolve) => waiting.set(name, resolve));

async function timedSaves(kib, how) {
  const times = [];
  for (let i = 0; i < saves; i++) {
    const name = `${kib}-${how}-${i}`;
    const arrived = seen(name);
    const start = performance.now();
    if (how === 'rename') {
      writeFileSync(`${file}.tmp`, template(name, kib));
      renameSync(`${file}.tmp`, file);
    } else writeFileSync(file, template(name, kib));
    await arrived;
    times.push(performance.now() - start);
  }
  return times;
}

function validateMs(kib) {
  writeFileSync(join(work, 'alone.json'), template('alone', kib));
  const times = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    spawnSync(process.execPath, [BIN, 'templates', 'validate', '--offline', join(work, 'alone.json')], { env: cleanEnv() });
    times.push(performance.now() - start);
  }
  return median(times);
}

console.log(cleanEnvNote());
console.log(`save → picture on an open page (${saves} saves each; the budget is 1000 ms)`);
for (const kib of [20, 256]) {
  const baseline = validateMs(kib);
  for (const how of ['in place', 'rename']) {
    const times = await timedSaves(kib, how);
    console.log(
      `  ${String(kib).padStart(3)} KiB ${how.padEnd(8)}  median ${median(times).toFixed(0)} ms, p95 ${p95(times).toFixed(0)} ms` +
        `  (templates validate --offline alone: ${baseline.toFixed(0)} ms; ratio ${(median(times) / baseline).toFixed(2)})`,
    );
  }
}

// Memory: 100 saves of a 256 KiB template while a second page has stopped reading.
const before = rssKiB(child.pid);
const stalled = connect(Number(new URL(origin).port), '127.0.0.1');
stalled.write(`GET /events HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nAuthorization: ${authorization}\r\n\r\n`);
stalled.pause();
let peak = before;
for (let i = 0; i < 100; i++) {
  const name = `stalled-${i}`;
  const arrived = seen(name);
  writeFileSync(file, template(name, 256));
  await arrived;
  peak = Math.max(peak, rssKiB(child.pid));
}
console.log(`RSS of the watch: ${(atStart / 1024).toFixed(0)} MB at start, ${(before / 1024).toFixed(0)} MB after the timed saves; peak ${(peak / 1024).toFixed(0)} MB over 100 saves of 256 KiB with a page that stopped reading (ratio ${(peak / before).toFixed(2)})`);
stalled.destroy();
child.kill('SIGINT');
rmSync(work, { recursive: true, force: true });
