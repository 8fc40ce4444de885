import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { lingerThenClose, rawResponse, type UnspentRateHeaders } from './client-errors.js';

const OVER_CAP = {
  error: 'SERVICE_UNAVAILABLE',
  message: 'The service has as many connections open as it takes; close one or retry in 1 s',
};

/**
 * Past `limit` open connections, a new one gets a 503 with Retry-After and is closed,
 * without its request being read: better told than dropped, as Node's maxConnections does.
 * Node's HTTP server takes a connection in its 'connection' listeners; those run only for the
 * connections within the cap.
 */
export function capConnections(server: Server, limit: number, rateHeaders: UnspentRateHeaders): void {
  const takers = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= limit) {
      socket.on('error', () => {});
      socket.resume();
      lingerThenClose(socket, rawResponse(503, OVER_CAP, { ...rateHeaders(socket.remoteAddress), 'Retry-After': '1' }));
      return;
    }
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    for (const take of takers) take.call(server, socket);
  });
}
