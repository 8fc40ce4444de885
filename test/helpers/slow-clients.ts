import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { validateTemplateBody } from '../../src/contract/index.js';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import type { IssuedKey } from '../../src/server/store/index.js';
import { minimalBody, readCatalogs, type CatalogsOverHttp } from './http.js';
import { tempDir } from './server.js';

/**
 * What the attacks on the service's memory and connections share (issue 17 items 2, 7, 8 and
 * 9, issue 28 item 2): a real server on a free port over a real SQLite file, large pages, and
 * clients that do not read.
 */

/** startServer's options for a server of its own, limits out of the way. */
export const serverOptions = () => ({
  host: '127.0.0.1',
  port: 0,
  dbPath: join(tempDir(), 'service.db'),
  demo: false,
  readsPerMinute: 100_000,
  writesPerMinute: 100_000,
});

export interface AttackedServer {
  server: RunningServer;
  /** Every access-log line, as written. */
  accessLog: string[];
  /** An account with room for 1,000 templates. */
  owner: IssuedKey;
  other: IssuedKey;
  catalogs: CatalogsOverHttp;
}

/** A server with its access log kept, two accounts, and its catalogs as a client reads them. */
export async function attackedServer(): Promise<AttackedServer> {
  const accessLog: string[] = [];
  const server = await startServer({ ...serverOptions(), accessLog: (line) => accessLog.push(line) });
  const owner = server.store.accounts.create({ templateLimit: 1000 });
  const other = server.store.accounts.create();
  return { server, accessLog, owner, other, catalogs: await readCatalogs(server, owner.apiKey) };
}

/**
 * Registers, in the calling describe block (or file), an attackedServer started before its
 * tests and handed to `opened`, and closed after them.
 */
export function attackedServerForSuite(opened: (attacked: AttackedServer) => void): void {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    const attacked = await attackedServer();
    server = attacked.server;
    opened(attacked);
  });
  afterAll(async () => {
    await server?.close();
  });
}

/** A layout element carrying a free-form property of `noteLength` characters. */
export const noted = (noteLength: number) => ({ type: 'text', x: 0, y: 0, width: 0.1, height: 0.1, note: 'n'.repeat(noteLength) });

/** A minimal body with these layout elements. */
export const elementsBody = (catalogs: CatalogsOverHttp, portrait: unknown[], landscape: unknown[] = []) => ({
  ...minimalBody(catalogs),
  layouts: { portrait: { elements: portrait }, ...(landscape.length > 0 ? { landscape: { elements: landscape } } : {}) },
});

/**
 * A new account of `on` with 50 templates of about 250 KiB: its `?limit=100` page is about
 * 12 MiB, more than a socket buffers, so a client that does not read holds its request open.
 */
export function bigPages(on: RunningServer): IssuedKey {
  const account = on.store.accounts.create({ templateLimit: 1000 });
  const stored = on.store.catalogs.get();
  // Checked as the API checks it, so that its defaults are filled in.
  const validation = validateTemplateBody(
    elementsBody(
      { reportTypes: stored.reportTypes, statistics: stored.statistics, viDefaults: stored.vegetationIndexDefaults },
      Array.from({ length: 120 }, () => noted(1000)),
      Array.from({ length: 120 }, () => noted(1000)),
    ),
    stored,
  );
  if (!validation.success) throw new Error(JSON.stringify(validation.issues));
  const big = validation.template;
  for (let i = 0; i < 50; i++) on.store.templates.create(account.accountId, account.userId, big);
  return account;
}
/** Sends a GET and never reads the answer, so the server cannot finish sending it. */
export function unreadRequest(baseUrl: string, path: string, key: string): Promise<Socket> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\napiKey: ${key}\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/**
 * What the socket receives until it closes or holds one whole answer: a page the server sent
 * whole leaves a keep-alive connection open, which would otherwise wait out its timeout.
 */
export function readAnswer(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const done = () => resolve(Buffer.concat(chunks));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const received = Buffer.concat(chunks);
      const headEnd = received.indexOf('\r\n\r\n');
      const length = headEnd < 0 ? undefined : /content-length: (\d+)/i.exec(received.subarray(0, headEnd).toString('latin1'))?.[1];
      if (length !== undefined && received.length - headEnd - 4 >= Number(length)) {
        done();
        socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.once('close', done);
  });
}

/** Calls `attempt` until `done` holds for its result (every 50 ms, up to 10 s). */
export async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

