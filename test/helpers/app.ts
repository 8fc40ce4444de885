import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { openStore } from '../../src/server/open-store.js';
import type { Store } from '../../src/server/store/index.js';
import { tempDir } from './server.js';

export interface ListeningApp {
  app: FastifyInstance;
  store: Store;
  url: string;
}

/**
 * The service's app (buildApp) on a fresh database file, listening on a free port, with 50
 * reads and 10 writes a minute unless `options` says otherwise: for what only a socket shows.
 * Closed, with its store and the connections opened by keepAliveConnection, when the test ends.
 */
export async function listeningApp(options: Partial<AppOptions> = {}): Promise<ListeningApp> {
  const store = openStore(join(tempDir(), 'service.db'));
  const app = buildApp({ store, readsPerMinute: 50, writesPerMinute: 10, ...options });
  onTestFinished(async () => {
    await app.close();
    store.close();
  });
  return { app, store, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/**
 * A keep-alive connection that has had one request served, so the server counts it: `GET
 * /healthz`, or with `apiKey` a list of templates under that key. Destroyed when the test ends.
 */
export async function keepAliveConnection(url: string, apiKey?: string): Promise<Socket> {
  const { hostname, port, host } = new URL(url);
  const socket = connect(Number(port), hostname);
  onTestFinished(() => void socket.destroy());
  socket.on('error', () => {});
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write(apiKey === undefined ? healthRequest(host) : `GET /api/v2/templates HTTP/1.1\r\nHost: ${host}\r\napiKey: ${apiKey}\r\n\r\n`);
  });
  return socket;
}

/** `GET /healthz` as it goes on a keep-alive connection to `host`. */
export const healthRequest = (host: string) => `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`;

/** Resolves once the socket is closed (at once if it is). */
export const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
