// `GET /api/v2/templates?limit=20` on an account of 10,000 templates: requests per second and
// latency of `reportctl serve`, against a bare node:http server (also a process of its own)
// that answers the very same body bytes from memory. The two are measured in alternating
// rounds by the same load generator, so machine noise hits both alike; the ratio is the figure.
// The load generator is undici's Pool in this process, with one loop per connection: 8 by
// default, 32 for the figure issue 10 measured with autocannon. The service answers at most
// MAX_IN_FLIGHT_PER_ACCOUNT (4) requests of one account at once, so the loops take turns
// over one account per four connections, each with the same 10,000 templates: the first
// account's are made through the API, the others' copied in SQL (same documents, same sizes).
// Targets: serve ≥ 0.5× the bare server's requests per second at 8 connections; at 32,
// ≥ 0.4× (goal 0.6×).
// Run after `npm run build`: node bench/server-throughput.mjs [rounds] [seconds-per-round] [connections]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Pool } from 'undici';

const TEMPLATES = 10_000;
const PATH = '/api/v2/templates?limit=20';
const ROUNDS = Number(process.argv[2] ?? 5);
const ROUND_MS = Number(process.argv[3] ?? 3) * 1000;
const CONNECTIONS = Number(process.argv[4] ?? 8);
const TARGET = CONNECTIONS >= 32 ? 0.4 : 0.5;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/reportctl.js');
const work = mkdtempSync(join(tmpdir(), 'reportctl-bench-'));
const db = join(work, 'service.db');
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** A child process whose first stdout line is JSON with its `url`. */
function startChild(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).url);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

const serveUrl = await startChild([
  bin, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log',
  '--reads-per-minute', '1000000000', '--writes-per-minute', '1000000000',
]);
const IN_FLIGHT_PER_ACCOUNT = 4;
const accounts = Array.from({ length: Math.ceil(CONNECTIONS / IN_FLIGHT_PER_ACCOUNT) }, () => {
  const admin = spawnSync(process.execPath, [bin, 'admin', 'accounts', 'create', '--template-limit', String(TEMPLATES), '--db', db, '--json'], {
    encoding: 'utf8',
  });
  if (admin.status !== 0) throw new Error(admin.stderr);
  return JSON.parse(admin.stdout);
});
const headers = { apiKey: accounts[0].apiKey };

// 10,000 templates through the API, a hundred at a time.
const servePool = new Pool(serveUrl, { connections: CONNECTIONS });
async function call(method, path, body) {
  const response = await servePool.request({
    method,
    path,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
  return { text, headers: response.headers };
}
const presets = JSON.parse((await call('GET', '/api/v2/templates/presets?limit=100')).text).data;
const seeded = performance.now();
for (let made = 0; made < TEMPLATES; made += 100) {
  await Promise.all(
    Array.from({ length: 100 }, (_, i) => {
      const preset = presets[(made + i) % presets.length];
      return call('POST', '/api/v2/templates', { ...preset.seedPayload, name: `bench ${made + i}` });
    }),
  );
}
console.log(`${TEMPLATES} templates created in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
if (accounts.length > 1) {
  const sqlite = new Database(db);
  sqlite.pragma('busy_timeout = 10000');
  const copy = sqlite.prepare(`
    INSERT INTO templates (id, account_id, user_id, analysis_type, report_type, report_category, document, created_at, updated_at)
    SELECT :prefix || substr(id, 9), :accountId, :userId, analysis_type, report_type, report_category,
           replace(replace(document, '"id":"' || id, '"id":"' || :prefix || substr(id, 9)), :fromUser, :userId), created_at, updated_at
    FROM templates WHERE account_id = :fromAccount ORDER BY seq`);
  sqlite.transaction(() => {
    accounts.slice(1).forEach(({ accountId, userId }, index) => {
      copy.run({ prefix: (index + 1).toString(16).padStart(8, '0'), accountId, userId, fromUser: accounts[0].userId, fromAccount: accounts[0].accountId });
    });
  })();
  sqlite.close();
  console.log(`copied to ${accounts.length - 1} more accounts, for ${CONNECTIONS} connections at ${IN_FLIGHT_PER_ACCOUNT} per account`);
}

// The bare server answers exactly these bytes, with the same content type.
const sample = await call('GET', PATH);
const body = Buffer.from(sample.text);
for (const { apiKey } of accounts) {
  const response = await servePool.request({ method: 'GET', path: PATH, headers: { apiKey } });
  const page = await response.body.text();
  if (JSON.parse(page).total !== TEMPLATES || Buffer.byteLength(page) !== body.length) throw new Error('an account does not hold the templates');
}
const bareSource = `
const http = require('node:http');
const body = Buffer.from(${JSON.stringify(body.toString('base64'))}, 'base64');
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': ${JSON.stringify(sample.headers['content-type'])}, 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));`;
const bareUrl = await startChild(['-e', bareSource]);
const barePool = new Pool(bareUrl, { connections: CONNECTIONS });

/** CONNECTIONS loops of back-to-back requests for `ms`: count and each latency. */
async function round(pool, ms) {
  const latencies = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, connection) => {
      const asAccount = { apiKey: accounts[connection % accounts.length].apiKey };
      while (performance.now() < until) {
        const started = performance.now();
        const response = await pool.request({ method: 'GET', path: PATH, headers: asAccount });
        const received = await response.body.arrayBuffer();
        if (response.statusCode !== 200 || received.byteLength !== body.length) throw new Error(`unexpected answer ${response.statusCode}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

// A warm-up round each, then alternate.
await round(servePool, 1000);
await round(barePool, 1000);
const all = { serve: [], bare: [] };
const elapsed = { serve: 0, bare: 0 };
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, pool] of i % 2 === 0 ? [['serve', servePool], ['bare', barePool]] : [['bare', barePool], ['serve', servePool]]) {
    const started = performance.now();
    all[name].push(...(await round(pool, ROUND_MS)));
    elapsed[name] += performance.now() - started;
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const rate = (name) => all[name].length / (elapsed[name] / 1000);
console.log(`GET ${PATH} on ${TEMPLATES} templates, ${CONNECTIONS} connections over ${accounts.length} accounts, ${ROUNDS} rounds of ${ROUND_MS / 1000} s each, ${body.length} bytes per answer`);
for (const name of ['bare', 'serve']) {
  console.log(
    `  ${name === 'bare' ? 'bare node:http  ' : 'reportctl serve '} ${rate(name).toFixed(0).padStart(6)} req/s` +
      `   p50 ${percentile(all[name], 50).toFixed(2)} ms   p99 ${percentile(all[name], 99).toFixed(2)} ms`,
  );
}
const ratio = rate('serve') / rate('bare');
console.log(`  ratio ${ratio.toFixed(2)}× the bare server (${ratio >= TARGET ? 'PASS' : 'FAIL'}; target ≥ ${TARGET}×)`);
await Promise.all([servePool.close(), barePool.close()]);
for (const child of children) child.kill('SIGKILL');
process.exitCode = ratio >= TARGET ? 0 : 1;
