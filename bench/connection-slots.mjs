// One local client without a key tries to hold every connection slot of `serve`: as many
// keep-alive connections as serve's cap (512), each sending GET /healthz every 20 s (the health
// check spends no rate limit, and each request restarts the idle timer), reopening any that
// closes. Meanwhile a client with a key asks for its templates on a new connection every
// 500 ms. Prints what that client got (statuses) and how long it waited, from connecting to
// the last byte, against the same client with no attack, measured first in the same run.
// `--root DIR` measures another build (a copy of its bin/, dist/ and package.json beside a
// node_modules), for the figures before a change. The attack runs in a process of its own.
//
//   npm run build && node bench/connection-slots.mjs [--root DIR]
//   options: --connections 512 --every-seconds 20 --tries 20 --seconds-between 0.5
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { adminOf, servedUrl, spawnServe } from './serve.mjs';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    connections: { type: 'string', default: '512' },
    'every-seconds': { type: 'string', default: '20' },
    tries: { type: 'string', default: '20' },
    'seconds-between': { type: 'string', default: '0.5' },
  },
});
const CONNECTIONS = Number(args.connections);
const TRIES = Number(args.tries);
const BETWEEN_MS = Number(args['seconds-between']) * 1000;

const bin = join(resolve(args.root), 'bin/reportctl.js');
const work = mkdtempSync(join(tmpdir(), 'reportctl-bench-'));
const db = join(work, 'service.db');
const { server, cleanUp } = spawnServe(bin, db, work, ['--no-access-log'], 'inherit');
const url = new URL(await servedUrl(server));
const { apiKey } = adminOf(bin, db)('accounts', 'create');

/** One keyed request on a connection of its own: its status (0: the connection failed) and ms from connecting to the last byte. */
function keyedRequest() {
  const started = performance.now();
  return new Promise((done) => {
    const sent = request({ host: url.hostname, port: url.port, path: '/api/v2/templates', headers: { apiKey }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => done({ status: response.statusCode, ms: performance.now() - started }));
    });
    sent.on('error', () => done({ status: 0, ms: performance.now() - started }));
    sent.end();
  });
}

async function measure(label) {
  const results = [];
  for (let i = 0; i < TRIES; i++) {
    results.push(await keyedRequest());
    await new Promise((wake) => setTimeout(wake, BETWEEN_MS));
  }
  const statuses = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  const served = results.filter(({ status }) => status === 200).map(({ ms }) => ms).sort((a, b) => a - b);
  const median = served.length > 0 ? served[Math.floor(served.length / 2)] : undefined;
  const longest = served.at(-1);
  console.log(
    `${label}: ${JSON.stringify(statuses)} of ${TRIES}` +
      (median === undefined ? '; none served' : `; served in ${median.toFixed(1)} ms (median), ${longest.toFixed(1)} ms (longest)`),
  );
  return median;
}

// The attack: CONNECTIONS keep-alive connections, each polling /healthz, reopened 20 ms after one closes.
const attackSource = `
const { connect } = require('node:net');
const [port, host, connections, everyMs] = process.argv.slice(1).map((value, i) => (i === 1 ? value : Number(value)));
const held = new Set();
let opened = 0;
const health = 'GET /healthz HTTP/1.1\\r\\nHost: ' + host + ':' + port + '\\r\\n\\r\\n';
function open() {
  const socket = connect(port, host);
  opened++;
  held.add(socket);
  socket.on('error', () => {});
  socket.on('data', () => {});
  socket.once('connect', () => socket.write(health));
  socket.once('close', () => { held.delete(socket); setTimeout(open, 20); });
}
for (let i = 0; i < connections; i++) open();
setInterval(() => { for (const socket of held) if (socket.writable) socket.write(health); }, everyMs);
setInterval(() => process.stdout.write(JSON.stringify({ opened, held: held.size }) + '\\n'), 1000);
`;

const alone = await measure('no attack');
const attacker = spawn(process.execPath, ['-e', attackSource, url.port, url.hostname, String(CONNECTIONS), String(Number(args['every-seconds']) * 1000)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let attackState = { opened: 0, held: 0 };
attacker.stdout.setEncoding('utf8').on('data', (chunk) => {
  const line = chunk.trim().split('\n').at(-1);
  if (line) attackState = JSON.parse(line);
});
process.on('exit', () => attacker.kill('SIGKILL'));
// Until every slot is held.
while (attackState.held < CONNECTIONS) await new Promise((wake) => setTimeout(wake, 200));
await new Promise((wake) => setTimeout(wake, 2000));
console.log(`attack: ${attackState.held} keyless connections polling /healthz every ${args['every-seconds']} s`);
const attacked = await measure('under attack');
console.log(`attack, at the end: ${attackState.opened} connections opened in all`);
if (alone !== undefined && attacked !== undefined) console.log(`median under attack ÷ without: ${(attacked / alone).toFixed(2)}×`);
attacker.kill('SIGKILL');
cleanUp();
