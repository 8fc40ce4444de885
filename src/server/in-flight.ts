import type { ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

/**
 * The bytes of list pages all accounts' answers in flight may hold at once: about seven of
 * the largest pages (26 MiB). With the service's own needs, serve stays under 512 MB however
 * many accounts ask (bench/memory-amplification.mjs).
 */
export const MAX_ANSWER_BYTES = 192 * 1024 * 1024;

/**
 * What one account's answers in flight may hold of MAX_ANSWER_BYTES: a quarter, room for one
 * of its largest pages (about 25 MiB) and most of a second. Accounts that read slowly cannot take the
 * whole budget from the others: with two of them at their share, half is left.
 */
export const MAX_ACCOUNT_ANSWER_BYTES = MAX_ANSWER_BYTES / 4;

/**
 * An answer the client takes nothing of for this long is dropped with its connection, which
 * frees its bytes (and its account's slot, where a count is kept): a client that stops
 * reading holds them no longer.
 */
export const ANSWER_STALL_MS = 10_000;

/**
 * An answer not taken whole this long after it was handed to its connection is dropped with
 * it, however steadily its client reads: the largest page (26 MiB) takes 30 s at under 1 MB/s,
 * far below any loopback or local network, and a reader that slow holds its bytes no longer.
 */
export const ANSWER_DEADLINE_MS = 30_000;

/** Accounts whose count is kept at zero; past this many, the zeros are dropped. */
const MAX_IDLE_ACCOUNTS = 10_000;

/**
 * Requests of one account being answered at once, counted until their response has been
 * sent (or its connection dropped), so a large answer a slow client has not read yet still
 * counts. Kept only when serve is asked for a cap (`maxInFlightPerAccount`): memory is bounded
 * by bytes (AnswerMemory), and a client within the rate limits may send many requests at once.
 */
export class InFlightLimiter {
  // An account's count stays at zero when its last answer closes: deleting and adding the
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

  /** Requests of the account being answered now. */
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

/** Takes `bytes` more for an answer, or throws 503 when the service already holds its limit. */
export type HoldAnswerBytes = (bytes: number) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** Charges the bytes this request's answer holds (see AnswerMemory); null before admission. */
    holdAnswerBytes: HoldAnswerBytes | null;
  }
}

/**
 * The bytes answers in flight hold, across accounts and per account. A page is charged step
 * by step as it is read, so many pages read at once cannot all grow before any is sent; a
 * step that would pass the service's limit, or its account's share, ends its request with
 * 503 and Retry-After. What an answer took is given back when its response closes (sent, or
 * its connection dropped).
 */
export class AnswerMemory {
  private held = 0;
  private readonly heldByAccount = new Map<string, number>();

  constructor(
    readonly limitBytes: number,
    readonly accountLimitBytes: number,
  ) {}

  /** What the account's answers hold now. */
  private heldBy(accountId: string): number {
    return this.heldByAccount.get(accountId) ?? 0;
  }

  /**
   * Charges one answer's bytes to the service and to its account. The response is watched only
   * from its first charge: most answers (cached pages, small ones) charge nothing.
   */
  holder(accountId: string, response: ServerResponse): HoldAnswerBytes {
    let taken = 0;
    let watched = false;
    let closed = false;
    const release = () => {
      closed = true;
      this.held -= taken;
      const left = this.heldBy(accountId) - taken;
      if (left > 0) this.heldByAccount.set(accountId, left);
      else this.heldByAccount.delete(accountId);
      taken = 0;
    };
    return (bytes) => {
      if (!watched) {
        watched = true;
        // Nobody will read what is read for a closed response.
        closed = response.socket === null || response.socket.destroyed;
        if (!closed) response.once('close', release);
      }
      if (closed) throw new ApiError('SERVICE_UNAVAILABLE', 'The connection closed before the answer was ready');
      if (this.held + bytes > this.limitBytes) {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The service holds as many answers as it can at once; retry in 1 s', undefined, {
          'retry-after': '1',
        });
      }
      const accountHeld = this.heldBy(accountId);
      if (accountHeld + bytes > this.accountLimitBytes) {
        throw new ApiError('SERVICE_UNAVAILABLE', "The account's answers in flight hold all the memory one account may; retry in 1 s", undefined, {
          'retry-after': '1',
        });
      }
      this.held += bytes;
      this.heldByAccount.set(accountId, accountHeld + bytes);
      taken += bytes;
    };
  }
}
