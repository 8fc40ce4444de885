import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { ReserveBytes } from '../store/index.js';

/** Accounts whose count is kept at zero; past this many, the zeros are dropped. */
const MAX_IDLE_ACCOUNTS = 10_000;

/**
 * Requests of one account being responded to at once, counted until their response has been
 * sent (or its connection dropped), so a large response a slow client has not read yet still
 * counts. Kept only when serve is asked for a cap (`maxInFlightPerAccount`): memory is bounded
 * by bytes (ResponseMemory), and a client within the rate limits may send many requests at once.
 */
export class InFlightLimiter {
  // An account's count stays at zero when its last response closes: deleting and adding the
  // same key on every request makes the map rebuild its table again and again.
  private readonly counts = new Map<string, number>();
  // Swept when the map reaches this size; when most accounts are busy, not again until it doubles.
  private sweepAt = MAX_IDLE_ACCOUNTS;

  constructor(readonly limit: number) {}

  /**
   * Counts the request in and returns true, or returns false when the account is at the limit.
   * Counted in, it leaves when its response closes: after the last byte was handed to the
   * socket, or when the socket died.
   */
  enter(accountId: string, response: ServerResponse): boolean {
    const count = this.counts.get(accountId) ?? 0;
    if (count >= this.limit) return false;
    if (count === 0 && this.counts.size >= this.sweepAt) this.dropIdle();
    this.counts.set(accountId, count + 1);
    response.once('close', () => {
      this.counts.set(accountId, Math.max(0, (this.counts.get(accountId) ?? 1) - 1));
    });
    return true;
  }

  /** Requests of the account being responded to now. */
  inFlight(accountId: string): number {
    return this.counts.get(accountId) ?? 0;
  }

  /** Accounts counted, idle ones included (bounded: see MAX_IDLE_ACCOUNTS). */
  get accountsCounted(): number {
    return this.counts.size;
  }

  private dropIdle(): void {
    for (const [accountId, count] of this.counts) if (count === 0) this.counts.delete(accountId);
    this.sweepAt = Math.max(MAX_IDLE_ACCOUNTS, this.counts.size * 2);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Reserves the bytes this request's response is made of (see ResponseMemory); null outside the API. */
    reserveResponseBytes: ReserveBytes | null;
  }
}

/**
 * The bytes responses in flight have reserved, across accounts and per account. A page
 * reserves its bytes step by step as it is read, so many pages read at once cannot all grow
 * before any is sent; a step that would pass the service's limit, or its account's share,
 * ends its request with 503 and Retry-After. A response's reservation is released when it
 * closes (sent, or its connection dropped).
 */
export class ResponseMemory {
  private reserved = 0;
  private readonly reservedByAccount = new Map<string, number>();

  constructor(
    readonly limitBytes: number,
    readonly accountLimitBytes: number,
  ) {}

  /** What the account's responses have reserved now. */
  private reservedBy(accountId: string): number {
    return this.reservedByAccount.get(accountId) ?? 0;
  }

  /**
   * Reserves one response's bytes of the service's and of its account's. The response is
   * watched only from its first reservation: most responses (cached pages, small ones) reserve
   * nothing.
   */
  reservation(accountId: string, response: ServerResponse): ReserveBytes {
    let taken = 0;
    let watched = false;
    let closed = false;
    const release = () => {
      closed = true;
      this.reserved -= taken;
      const left = this.reservedBy(accountId) - taken;
      if (left > 0) this.reservedByAccount.set(accountId, left);
      else this.reservedByAccount.delete(accountId);
      taken = 0;
    };
    return (bytes) => {
      if (!watched) {
        watched = true;
        // Nobody will read what is read for a closed response.
        closed = response.socket === null || response.socket.destroyed;
        if (!closed) response.once('close', release);
      }
      if (closed) throw new ApiError('SERVICE_UNAVAILABLE', 'The connection closed before the response was ready');
      if (this.reserved + bytes > this.limitBytes) {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The service has as many responses in flight as its memory takes; retry in 1 s', undefined, {
          'retry-after': '1',
        });
      }
      const accountReserved = this.reservedBy(accountId);
      if (accountReserved + bytes > this.accountLimitBytes) {
        throw new ApiError('SERVICE_UNAVAILABLE', "The account's responses in flight have all the memory one account may; retry in 1 s", undefined, {
          'retry-after': '1',
        });
      }
      this.reserved += bytes;
      this.reservedByAccount.set(accountId, accountReserved + bytes);
      taken += bytes;
    };
  }
}

/**
 * Step 9 of the gate: an authenticated request takes its place among its account's requests
 * in flight (refused 429 past a cap `serve --max-in-flight` sets), and its share of the
 * responses' memory, which the route reserves as it reads a page.
 */
export function inFlightStep(limits: Limits): (request: FastifyRequest, reply: FastifyReply, accountId: string) => void {
  const counts = limits.maxInFlightPerAccount === undefined ? null : new InFlightLimiter(limits.maxInFlightPerAccount);
  const memory = new ResponseMemory(limits.maxResponseBytes, limits.maxAccountResponseBytes);
  return (request, reply, accountId) => {
    if (counts !== null && !counts.enter(accountId, reply.raw)) {
      throw new ApiError('RATE_LIMITED', `Too many requests in flight for this account (at most ${counts.limit}); retry in 1 s`, undefined, {
        'retry-after': '1',
      });
    }
    request.reserveResponseBytes = memory.reservation(accountId, reply.raw);
  };
}
