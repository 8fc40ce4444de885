// Across modules: a running serve against slow clients, a full disk and files not its own.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, type SpawnedCli } from '../helpers/cli.js';
import { api, tempDir, type IssuedKey } from '../helpers/server.js';
import { adminRaw, expectError, listAll, type TemplateDoc } from '../helpers/http.js';
import { sqliteDriver } from '../../src/server/store/driver.js';

const { Database } = sqliteDriver();

/**
 * Faults a real `reportctl serve` must ride out (docs/decisions.md: "The embedded service"): a database
 * another process holds locked, files that are not its database, a disk that fills up, clients
 * that never finish their request, and a SIGTERM in the middle of an upload. (SIGKILL during a
 * write burst is test/server/durability.test.ts; twenty rounds: `node bench/soak-kill.mjs`.)
 */

const HEADERS_TIMEOUT_MS = 1_000;

interface Service {
  url: string;
  db: string;
  process: SpawnedCli;
}

/** `reportctl serve` over `db` with the hidden test knobs in `env`; limits raised. */
async function startService(db: string, env: Record<string, string> = {}): Promise<Service> {
  const spawned = await spawnCli(
    ['serve', '--port', '0', '--db', db, '--json', '--no-access-log', '--reads-per-minute', '100000', '--writes-per-minute', '100000'],
    { env },
  );
  return { url: (JSON.parse(spawned.firstLine) as { url: string }).url, db, process: spawned };
}

async function newAccount(db: string): Promise<IssuedKey> {
  const result = await adminRaw(db, 'accounts', 'create', '--template-limit', '100000');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as IssuedKey;
}

async function presetBodies(service: Service, key: string): Promise<Array<Record<string, unknown>>> {
  const presets = await api(service, 'GET', '/api/v2/templates/presets?limit=100', { key });
  expect(presets.status).toBe(200);
  return (presets.body as { data: Array<{ seedPayload: Record<string, unknown> }> }).data.map((preset) => preset.seedPayload);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A socket that sends `head` and then nothing; resolves with what it got and when it closed. */
function stalledSocket(url: string, head: string): { socket: Socket; closed: Promise<{ afterMs: number; received: string }> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let received = '';
  socket.setEncoding('utf8');
  socket.on('connect', () => socket.write(head));
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.on('close', () => resolve({ afterMs: performance.now() - started, received })),
  );
  return { socket, closed };
}

function bodyOfRaw(received: string): unknown {
  const at = received.indexOf('\r\n\r\n');
  return at < 0 ? undefined : JSON.parse(received.slice(at + 4));
}

describe('a running server (headers timeout 1 s)', () => {
  let service: Service;
  let owner: IssuedKey;
  let bodies: Array<Record<string, unknown>>;

  beforeAll(async () => {
    const db = join(tempDir(), 'service.db');
    owner = await newAccount(db);
    service = await startService(db, {
      REPORTCTL_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REPORTCTL_REQUEST_TIMEOUT_MS: '20000',
    });
    bodies = await presetBodies(service, owner.apiKey);
  });
  afterAll(async () => {
    await service?.process.stop('SIGKILL');
  });

  it('a database another process holds locked for 0.6 s: the POST waits and gets its 201, and reads are answered meanwhile', async () => {
    const holder = new Database(service.db);
    try {
      holder.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      let settled = false;
      const pending = api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[0], name: 'waited for the lock' } });
      void pending.finally(() => (settled = true));
      await sleep(300);
      // The wait does not hold the event loop: a read is answered while the POST still waits.
      const read = await api(service, 'GET', '/api/v2/templates?limit=1', { key: owner.apiKey });
      expect(read.status, read.text).toBe(200);
      expect(settled).toBe(false);
      await sleep(300);
      holder.exec('COMMIT');
      const response = await pending;
      const waited = performance.now() - started;
      expect(response.status, response.text).toBe(201);
      expect(waited).toBeGreaterThanOrEqual(550);
      const created = response.body as TemplateDoc;
      expect((await api(service, 'GET', `/api/v2/templates/${created.id}`, { key: owner.apiKey })).body).toEqual(created);
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('a lock held past the 5 s wait: the POST answers 503 SERVICE_UNAVAILABLE with Retry-After, stores nothing, and succeeds once the lock is gone', { timeout: 30_000 }, async () => {
    const before = await listAll(service, owner.apiKey, '/api/v2/templates');
    const holder = new Database(service.db);
    try {
      holder.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      const refused = await api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[0], name: 'never stored' } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(4_900);
      const body = expectError(refused, 503, 'SERVICE_UNAVAILABLE');
      expect(body.message).toMatch(/database is busy/);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull();
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
    // A 503 is not a bug: nothing is logged as an internal error.
    expect(service.process.stderr()).not.toMatch(/SQLITE_BUSY|database is locked/);
    expect(await listAll(service, owner.apiKey, '/api/v2/templates')).toEqual(before);
    const retried = await api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[0], name: 'stored after the lock' } });
    expect(retried.status, retried.text).toBe(201);
  });

  it('a socket that sends half a request header and then nothing is answered 408 and closed within the headers timeout', async () => {
    const { closed } = stalledSocket(service.url, `GET /api/v2/templates HTTP/1.1\r\nHost: x\r\napiKey: ${owner.apiKey}\r\nX-Half: `);
    const { afterMs, received } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    // Node checks its deadlines every headersTimeout / 4 here; the slack is for a busy machine.
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    // A code of its own, without issues: nothing in the request was wrong, so it is sent again.
    expect(bodyOfRaw(received)).toEqual({ error: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time; send it again' });
    expect(received).toMatch(/\r\nx-ratelimit-remaining: \d+\r\n/i);
  });

  it('50 stalled sockets and a byte-a-time trickler do not hold the server: normal requests are answered quickly meanwhile, and every one is closed', async () => {
    const stalled = Array.from({ length: 50 }, (_, i) =>
      stalledSocket(service.url, i % 2 === 0 ? 'GET /api/v2/templates HTTP/1.1\r\nHost: x\r\n' : 'POST /api/v2/te'),
    );
    // Trickling header bytes does not reset the deadline: it runs from the first byte.
    const trickler = stalledSocket(service.url, 'GET /api/v2/templates HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const drip = setInterval(() => {
      if (!trickler.socket.destroyed) trickler.socket.write('a');
    }, 100);
    try {
      await sleep(200);
      // Once untimed: a test file's first exchange with an operation compiles its OpenAPI checks.
      await api(service, 'GET', '/api/v2/catalogs/statistics', { key: owner.apiKey });
      const timings: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const response = await api(service, 'GET', '/api/v2/catalogs/statistics', { key: owner.apiKey });
        timings.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
      timings.sort((a, b) => a - b);
      expect(timings[timings.length - 1], `slowest of ${timings.map((t) => t.toFixed(0)).join(', ')} ms`).toBeLessThan(500);
      const outcomes = await Promise.all([...stalled, trickler].map((socket) => socket.closed));
      for (const { afterMs } of outcomes) expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
      expect(outcomes.filter(({ received }) => received.startsWith('HTTP/1.1 408 ')).length).toBe(outcomes.length);
    } finally {
      clearInterval(drip);
      for (const { socket } of [...stalled, trickler]) socket.destroy();
    }
    expect((await api(service, 'GET', '/api/v2/templates', { key: owner.apiKey })).status).toBe(200);
  });

  it('SIGTERM in the middle of a slow 200 KB upload: the request completes with its 201, then the process exits 0', { timeout: 30_000 }, async () => {
    // Within the per-property (1,024 characters) and per-template (256 KiB) caps.
    const element = { type: 'text', x: 0.1, y: 0.1, width: 0.5, height: 0.1, text: 'notes '.repeat(170) };
    const layouts = { portrait: { elements: Array.from({ length: 190 }, () => element) } };
    const payload = Buffer.from(JSON.stringify({ ...bodies[0], name: 'uploaded during shutdown', layouts }));
    expect(payload.length).toBeGreaterThan(200_000);
    const { hostname, port } = new URL(service.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const socketClosed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      `POST /api/v2/templates HTTP/1.1\r\nHost: ${service.url.slice(7)}\r\napiKey: ${owner.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    // A second client has begun a request, whose headers end only after the SIGTERM.
    const late = stalledSocket(service.url, `GET /api/v2/queues HTTP/1.1\r\nHost: ${service.url.slice(7)}\r\n`);
    // Ten slices over about 1.5 s, SIGTERM after the first one.
    const slice = Math.ceil(payload.length / 10);
    socket.write(payload.subarray(0, slice));
    await sleep(100);
    const exited = service.process.stop('SIGTERM');
    await sleep(200);
    late.socket.write(`apiKey: ${owner.apiKey}\r\n\r\n`);
    for (let at = slice; at < payload.length; at += slice) {
      await sleep(150);
      socket.write(payload.subarray(at, at + slice));
    }
    const finished = performance.now();
    await socketClosed;
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(performance.now() - finished).toBeLessThan(5_000);

    expect(received).toMatch(/^HTTP\/1\.1 201 /);
    // The late request is refused in the service's shape, and told when to come back.
    const refused = await late.closed;
    expect(refused.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.received.toLowerCase()).toContain('retry-after: 1');
    expect(bodyOfRaw(refused.received)).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/shutting down/) });
    // The connection is not kept alive past the shutdown.
    expect(received.toLowerCase()).toContain('connection: close');
    const created = bodyOfRaw(received) as TemplateDoc;
    expect(created.name).toBe('uploaded during shutdown');
    // What was acknowledged is on disk.
    const db = new Database(service.db, { readonly: true });
    try {
      const document = db.prepare('SELECT document FROM templates WHERE id = ?').pluck().get(created.id) as string;
      expect(JSON.parse(document)).toEqual(created);
    } finally {
      db.close();
    }
  });
});

describe('a disk that fills up (REPORTCTL_TEST_MAX_PAGE_COUNT caps the file)', () => {
  it('writes past the cap answer a bare 500 INTERNAL_ERROR and are logged; the server stays up, everything acknowledged stays readable, the file stays sound', { timeout: 60_000 }, async () => {
    const db = join(tempDir(), 'full.db');
    const owner = await newAccount(db);
    const pages = (() => {
      const reader = new Database(db, { readonly: true });
      try {
        return reader.pragma('page_count', { simple: true }) as number;
      } finally {
        reader.close();
      }
    })();
    const service = await startService(db, { REPORTCTL_TEST_MAX_PAGE_COUNT: String(pages + 12) });
    try {
      const bodies = await presetBodies(service, owner.apiKey);
      const acknowledged: TemplateDoc[] = [];
      let failure: Awaited<ReturnType<typeof api>> | undefined;
      for (let i = 0; i < 300 && !failure; i++) {
        const response = await api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[i % bodies.length], name: `filling ${i}` } });
        if (response.status === 201) acknowledged.push(response.body as TemplateDoc);
        else failure = response;
      }
      expect(acknowledged.length).toBeGreaterThan(5);
      expect(failure, 'the cap was never reached').toBeDefined();
      // docs/decisions.md have no row for a full disk: a 500 with the generic message, no stack, logged.
      const body = expectError(failure!, 500, 'INTERNAL_ERROR');
      expect(body.message).toBe('Internal error; it has been logged');
      expect(failure!.text).not.toMatch(/SQLITE|disk|full|\bat\b|\.js/i);
      expect(service.process.stderr()).toMatch(/error: SqliteError: database or disk is full/);

      // Still full: another create fails the same way, and nothing half-written appears.
      expectError(await api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[0], name: 'still full' } }), 500, 'INTERNAL_ERROR');
      // Reads still work, and every acknowledged template is there exactly as acknowledged.
      expect((await api(service, 'GET', '/api/v2/catalogs/statistics', { key: owner.apiKey })).status).toBe(200);
      for (const template of acknowledged) {
        expect((await api(service, 'GET', `/api/v2/templates/${template.id}`, { key: owner.apiKey })).body).toEqual(template);
      }
      const listed = await listAll<TemplateDoc>(service, owner.apiKey, '/api/v2/templates');
      expect(listed.map((template) => template.id).sort()).toEqual(acknowledged.map((template) => template.id).sort());
      // Freeing space lets writes succeed again.
      for (const template of acknowledged.slice(0, 5)) {
        expect((await api(service, 'DELETE', `/api/v2/templates/${template.id}`, { key: owner.apiKey })).status).toBe(204);
      }
      const again = await api(service, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...bodies[0], name: 'room again' } });
      expect(again.status, again.text).toBe(201);
      const finalIds = (await listAll<TemplateDoc>(service, owner.apiKey, '/api/v2/templates')).map((template) => template.id).sort();
      expect(finalIds).toEqual([...acknowledged.slice(5).map((template) => template.id), (again.body as TemplateDoc).id].sort());
    } finally {
      const { code } = await service.process.stop('SIGTERM');
      expect(code).toBe(0);
    }
    const check = new Database(db, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(check.pragma('foreign_key_check')).toEqual([]);
    } finally {
      check.close();
    }
  });
});

describe('files that are not this service’s database', () => {
  function corruptFiles(): Array<[what: string, file: string]> {
    const dir = tempDir('reportctl-bad-db-');
    const random = join(dir, 'random.db');
    writeFileSync(random, Buffer.from(Array.from({ length: 16_384 }, (_, i) => (i * 7919 + 13) % 251)));
    const foreign = join(dir, 'invoices.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5), (2, 12.25);');
    other.close();
    // A valid SQLite header over a damaged body.
    const damaged = join(dir, 'damaged.db');
    const bytes = readFileSync(foreign);
    for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    writeFileSync(damaged, bytes);
    return [
      ['random bytes', random],
      ['another application’s SQLite database', foreign],
      ['an SQLite header over a damaged body', damaged],
    ];
  }

  it('`serve --db` and `admin accounts list --db` exit 1 naming the path, and leave the file byte for byte as it was', { timeout: 60_000 }, async () => {
    for (const [what, file] of corruptFiles()) {
      const before = sha256(file);
      const [serve, admin] = await Promise.all([
        runCli(['serve', '--port', '0', '--db', file], { timeoutMs: 15_000 }),
        runCli(['admin', 'accounts', 'list', '--db', file]),
      ]);
      for (const [command, result] of [['serve', serve], ['admin accounts list', admin]] as const) {
        expect(result.code, `${command} on ${what}: ${result.stderr}`).toBe(1);
        expect(result.stderr, `${command} on ${what}`).toContain(file);
        expect(result.stderr).toMatch(/Cannot use database .*: it is (not an SQLite database|corrupt|an SQLite database of another application)/);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(result.stdout).toBe('');
      }
      expect(sha256(file), `${what} was modified`).toBe(before);
      expect(existsSync(`${file}-wal`) || existsSync(`${file}-shm`) || existsSync(`${file}-journal`), `${what} got companion files`).toBe(false);
    }
  });
});
