// The kill -9 soak shared by test/server/durability.test.ts (3 rounds) and bench/soak-kill.mjs
// (20 by default). Plain JavaScript so the bench runs with `node` alone; types in kill-soak.d.mts.
//
// docs/storage.md: a `kill -9` at any moment loses nothing the service
// acknowledged; every acknowledged write is readable after a restart. Each round, a real `reportctl serve` on a file
// database takes a burst of creates (one sequential stream and waves of 8 parallel ones) and is
// SIGKILLed right after the n-th 201, with requests still in flight; a new server on the same
// file must then have every template that ever got a 201, exactly as the 201 showed it.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

export const BIN = fileURLToPath(new URL('../../bin/reportctl.js', import.meta.url));
const STRAY_NAME = /^round \d+ #\d+$/;

/**
 * The environment of a child `reportctl`: none of the caller's REPORTCTL_* settings or colours.
 */
function childEnv() {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name === 'FORCE_COLOR' || name === 'NO_COLOR') continue;
    if (name.startsWith('REPORTCTL_')) continue;
    env[name] = value;
  }
  env.REPORTCTL_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'reportctl-soak-config-'));
  return env;
}

/** `reportctl serve` on a free port over `db`, limits raised, no access log. */
export function startService(db) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log', '--reads-per-minute', '1000000', '--writes-per-minute', '1000000'],
      { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
    let stdout = '';
    let stderr = '';
    let listening = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve gave no first line in 20 s\n${stderr}`));
    }, 20_000);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0 || listening) return;
      listening = true;
      clearTimeout(timer);
      resolve({ url: JSON.parse(stdout.slice(0, newline)).url, child, exited });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code} before listening\n${stderr}`));
    });
  });
}

/** `reportctl admin ... --db db --json`, parsed; throws on a non-zero exit. */
export function admin(db, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'admin', ...args, '--db', db, '--json'], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`admin ${args.join(' ')}: ${code} ${stderr}`))));
  });
}

async function request(service, key, method, path, body) {
  const response = await fetch(service.url + path, {
    method,
    headers: { apiKey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text === '' ? undefined : JSON.parse(text) };
}

/** Creates until the server is killed, right after the `killAfter`-th 201. */
export async function burstUntilKilled({ service, key, bodies, round, killAfter }) {
  const acknowledged = [];
  let unanswered = 0;
  let killed = false;
  let sent = 0;

  const createOne = async () => {
    const index = sent++;
    const body = { ...bodies[index % bodies.length], name: `round ${round} #${index}` };
    try {
      const response = await request(service, key, 'POST', '/api/v2/templates', body);
      if (response.status !== 201) throw new Error(`create answered ${response.status}: ${response.text}`);
      acknowledged.push(response.body);
      if (!killed && acknowledged.length >= killAfter) {
        killed = true;
        service.child.kill('SIGKILL');
      }
    } catch (error) {
      if (!killed) throw error;
      unanswered++;
    }
  };
  const sequential = async () => {
    while (!killed) await createOne();
  };
  const parallelWaves = async () => {
    while (!killed) await Promise.all(Array.from({ length: 8 }, () => createOne()));
  };
  await Promise.all([sequential(), parallelWaves()]);
  await service.exited;
  return { acknowledged, unanswered };
}

/**
 * `rounds` kills over one database file (a fresh one unless `db` is given). Never throws for a
 * durability failure: everything found is in the summary, for a test to assert or a bench to print.
 */
export async function soakKill({ rounds, db, killAfter = (round) => 25 + (((round - 1) % 3) + 1) * 15, log = () => {} }) {
  const file = db ?? join(mkdtempSync(join(tmpdir(), 'reportctl-soak-')), 'service.db');
  const account = await admin(file, 'accounts', 'create', '--template-limit', '1000000');
  let service = await startService(file);
  const presets = await request(service, account.apiKey, 'GET', '/api/v2/templates/presets?limit=100');
  const bodies = presets.body.data.map((preset) => preset.seedPayload);
  const everAcknowledged = new Map();
  let unansweredSoFar = 0;
  const summary = { db: file, rounds: [], acknowledged: 0, lost: [], changed: [], strays: [], failures: [] };

  try {
    for (let round = 1; round <= rounds; round++) {
      const started = Date.now();
      const target = killAfter(round);
      const burst = await burstUntilKilled({ service, key: account.apiKey, bodies, round, killAfter: target });
      for (const template of burst.acknowledged) everAcknowledged.set(template.id, template);
      unansweredSoFar += burst.unanswered;

      service = await startService(file);
      const report = { round, killAfter: target, acknowledged: burst.acknowledged.length, unanswered: burst.unanswered, lost: 0, changed: 0, strays: 0 };
      for (const [id, template] of everAcknowledged) {
        const response = await request(service, account.apiKey, 'GET', `/api/v2/templates/${id}`);
        if (response.status !== 200) {
          summary.lost.push({ round, id, name: template.name, status: response.status });
          report.lost++;
        } else if (!isDeepStrictEqual(response.body, template)) {
          summary.changed.push({ round, id, acknowledged: template, stored: response.body });
          report.changed++;
        }
      }
      // Only whole templates exist: anything beyond the acknowledged ones is a create whose answer the kill lost.
      const listed = await listAllTemplates(service, account.apiKey);
      const extra = listed.filter((template) => !everAcknowledged.has(template.id));
      for (const template of extra) {
        if (!STRAY_NAME.test(String(template.name))) summary.strays.push({ round, id: template.id, name: template.name });
      }
      if (extra.length > unansweredSoFar) {
        summary.failures.push(`round ${round}: ${extra.length} unacknowledged templates, but only ${unansweredSoFar} creates went unanswered`);
      }
      report.strays = extra.length;
      // The restarted server takes writes again.
      const again = await request(service, account.apiKey, 'POST', '/api/v2/templates', { ...bodies[0], name: `after kill ${round}` });
      if (again.status === 201) everAcknowledged.set(again.body.id, again.body);
      else summary.failures.push(`round ${round}: a create after the restart answered ${again.status}: ${again.text}`);

      summary.rounds.push(report);
      log(
        `round ${round}: ${report.acknowledged} acknowledged, ${report.unanswered} in flight at the kill, ` +
          `${report.lost} lost, ${report.changed} changed, ${extra.length} unacknowledged kept so far (${Date.now() - started} ms)`,
      );
    }
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  summary.acknowledged = everAcknowledged.size;
  return summary;
}

async function listAllTemplates(service, key) {
  const items = [];
  for (let page = 1; ; page++) {
    const response = await request(service, key, 'GET', `/api/v2/templates?page=${page}&limit=100`);
    if (response.status !== 200) throw new Error(`list answered ${response.status}: ${response.text}`);
    items.push(...response.body.data);
    if (response.body.data.length === 0 || items.length >= response.body.total) return items;
  }
}
