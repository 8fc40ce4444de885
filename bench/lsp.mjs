// reportctl lsp as an editor meets it: how soon `initialize` is answered (against `node -e 0`
// started the same way, in the same run), how soon diagnostics follow a change to a 20 KB and
// a 256 KiB template, and the server's memory with 200 template files open.
// Run `npm run build` first. Usage: node bench/lsp.mjs [rounds=15]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { cleanEnv } from './clean-env.mjs';

const BIN = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
const rounds = Number(process.argv[2] ?? 15);
const env = cleanEnv();
const folder = mkdtempSync(join(tmpdir(), 'reportctl-bench-lsp-'));

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const ms = (value) => `${value.toFixed(1)} ms`;

/** A counting template of about `bytes` bytes: text elements down the page, each with a caption and a note. */
function template(bytes, name) {
  const count = Math.min(200, Math.max(1, Math.round(bytes / 1300)));
  const text = 'c'.repeat(Math.max(1, Math.round((bytes - 600) / count) - 190));
  const elements = Array.from({ length: count }, (_, i) => ({ type: 'text', x: 0, y: i / count, width: 0.5, height: 1 / count, caption: text.slice(0, 1000), note: text.slice(1000, 2000) || 'n' }));
  return `${JSON.stringify({ name, analysisType: 'counting', reportType: 'plant_count_summary', reportTypeId: '5f40603a-f4d7-4e69-801d-4504cd00c667', reportCategory: 'general', selectedStatistics: ['totalPlants'], layouts: { portrait: { elements } } }, null, 2)}\n`;
}

function startServer() {
  const child = spawn(process.execPath, [BIN, 'lsp', '--offline'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification('textDocument/publishDiagnostics', ({ uri, version }) => waiting.get(`${uri}#${version}`)?.());
  connection.listen();
  const diagnosed = (uri, version) => new Promise((resolve) => waiting.set(`${uri}#${version}`, resolve));
  const stop = async () => {
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    await new Promise((resolve) => child.on('exit', resolve));
    connection.dispose();
  };
  return { child, connection, diagnosed, stop };
}

async function timeToInitialize() {
  const started = performance.now();
  const server = startServer();
  await server.connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
  const elapsed = performance.now() - started;
  await server.stop();
  return elapsed;
}

function timeNodeAlone() {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return performance.now() - started;
}

/** Diagnostics after each of `changes` edits of a `bytes`-sized template: ms from the change sent to the diagnostics received. */
async function timeDiagnostics(bytes, changes) {
  const server = startServer();
  await server.connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
  await server.connection.sendNotification('initialized', {});
  const uri = pathToFileURL(join(folder, `size-${bytes}.json`)).href;
  const text = template(bytes, `Lot ${bytes}`);
  let first = server.diagnosed(uri, 1);
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  await first;
  const times = [];
  for (let version = 2; version < changes + 2; version++) {
    const edited = text.replace(/"totalPlants"/, version % 2 ? '"totalPlants"' : '"plantsPerHectare"');
    const done = server.diagnosed(uri, version);
    const started = performance.now();
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: edited }] });
    await done;
    times.push(performance.now() - started);
  }
  await server.stop();
  return { size: Buffer.byteLength(text), times };
}

/** The server's resident memory (Linux) once 200 templates of about 20 KB are open and diagnosed. */
async function memoryWithOpenFiles(files) {
  const server = startServer();
  await server.connection.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(folder).href, capabilities: {} });
  await server.connection.sendNotification('initialized', {});
  const all = [];
  for (let index = 0; index < files; index++) {
    const path = join(folder, `open-${index}.json`);
    const text = template(20_000, `Lot ${index}`);
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    all.push(server.diagnosed(uri, 1));
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  }
  await Promise.all(all);
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  await server.stop();
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

const baseline = Array.from({ length: rounds }, timeNodeAlone);
const initialize = [];
for (let round = 0; round < rounds; round++) initialize.push(await timeToInitialize());
console.log(`initialize answered: median ${ms(percentile(initialize, 50))}, p95 ${ms(percentile(initialize, 95))} after spawn (target 300 ms)`);
console.log(`node -e 0 to exit:   median ${ms(percentile(baseline, 50))}; ratio ${(percentile(initialize, 50) / percentile(baseline, 50)).toFixed(2)}`);
for (const [bytes, changes, target] of [[20_000, 100, 50], [256 * 1024, 30, 300]]) {
  const { size, times } = await timeDiagnostics(bytes, changes);
  console.log(`diagnostics after a change, ${(size / 1024).toFixed(0)} KiB template: median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} over ${changes} changes (target p95 ${target} ms)`);
}
const memory = await memoryWithOpenFiles(200);
console.log(`200 templates of ~20 KB open and diagnosed: ${memory.rss.toFixed(0)} MiB resident, peak ${memory.peak.toFixed(0)} MiB (target under 120 MB)`);
