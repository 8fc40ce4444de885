import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { lingerThenClose, rawResponse, type UnspentRateHeaders } from './client-errors.js';

const OVER_CAP = {
  error: 'SERVICE_UNAVAILABLE',
  message: 'The service has as many connections open as it takes; close one or retry in 1 s',
};

/** A socket with a response under way (Node's own field, set from the request's headers to the response's end). */
const responding = (socket: Socket) => (socket as Socket & { _httpMessage?: unknown })._httpMessage != null;

/**
 * How long a new connection that has sent no request yet keeps its slot: a client that
 * connects sends its request at once, and keeps the slot if a valid key comes with it.
 */
const NEW_CONNECTION_GRACE_MS = 1_000;

interface KeylessSlot {
  since: number;
  /** A request came on it (keyless, or with an invalid key). */
  requested: boolean;
}

/**
 * The connections open at once, at most `limit`. A connection that has never presented a
 * valid key holds its slot only until the cap is reached: then a new connection takes the
 * slot of the oldest such one, idle ones first (a response cut short only when every keyless
 * connection is busy), and never of one that connected within the last second without a
 * request yet. A connection that presented a valid key (`requestSeen`, told by the gate)
 * keeps its slot: a client without a key, however many connections it keeps busy, cannot
 * lock out a client with one. Only when no slot can be taken is a new connection refused: a
 * 503 with Retry-After, without its request being read, better told than dropped.
 */
export class ConnectionSlots {
  private readonly open = new Set<Socket>();
  /** Open connections that never presented a valid key, oldest first. */
  private readonly keyless = new Map<Socket, KeylessSlot>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Takes over the server's connections: Node's HTTP server takes one in its 'connection'
   * listeners, which then run only for the connections given a slot.
   */
  attach(server: Server, rateHeaders: UnspentRateHeaders): void {
    const takers = server.listeners('connection') as Array<(socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (this.open.size >= this.limit && !this.makeRoom()) {
        socket.on('error', () => {});
        socket.resume();
        lingerThenClose(socket, rawResponse(503, OVER_CAP, { ...rateHeaders(socket.remoteAddress), 'Retry-After': '1' }));
        return;
      }
      this.open.add(socket);
      this.keyless.set(socket, { since: this.now(), requested: false });
      socket.once('close', () => this.release(socket));
      for (const take of takers) take.call(server, socket);
    });
  }

  /** A request came on the connection, with a valid key or not: with one, the connection keeps its slot from now on. */
  requestSeen(connection: object, withValidKey: boolean): void {
    if (withValidKey) this.keyless.delete(connection as Socket);
    else {
      const slot = this.keyless.get(connection as Socket);
      if (slot !== undefined) slot.requested = true;
    }
  }

  private release(socket: Socket): void {
    this.open.delete(socket);
    this.keyless.delete(socket);
  }

  /** Closes the oldest keyless connection that may go, an idle one if there is one; false when none may. */
  private makeRoom(): boolean {
    const now = this.now();
    let victim: Socket | undefined;
    for (const [socket, slot] of this.keyless) {
      if (!slot.requested && now - slot.since < NEW_CONNECTION_GRACE_MS) continue;
      victim ??= socket;
      if (!responding(socket)) {
        victim = socket;
        break;
      }
    }
    if (victim === undefined) return false;
    this.release(victim);
    victim.destroy();
    return true;
  }
}
