import type { ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

/**
 * Enough for a dashboard's parallel reads; few enough that one account's largest pages
 * (100 templates of up to 256 KiB each) cannot fill the memory (bench/memory-amplification.mjs).
 */
export const MAX_IN_FLIGHT_PER_ACCOUNT = 4;

/**
 * The bytes of list pages all accounts' answers in flight may hold at once: about seven of
 * the largest pages (26 MiB). With the service's own needs, serve stays under 512 MB however
 * many accounts ask (bench/memory-amplification.mjs).
 */
export const MAX_ANSWER_BYTES = 192 * 1024 * 1024;

/**
 * An answer the client takes nothing of for this long is dropped with its connection, which
 * frees its account's slot and its bytes: a client that stops reading holds them no longer.
 */
export const ANSWER_STALL_MS = 10_000;

/** Accounts whose count is kept at zero; past this many, the zeros are dropped. */
const MAX_IDLE_ACCOUNTS = 10_000;

/**
 * Requests of one account being answered at once, counted until their response has been
 * sent (or its connection dropped), so a large answer a slow client has not read yet still
 * counts. What one account can make the server hold at a time is this many answers, however
 * many connections it opens; other accounts are not waiting behind it.
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
  enter(accountId: string, response: ServerResponse, alsoOnClose?: () => void): boolean {
    const count = this.counts.get(accountId) ?? 0;
    if (count >= this.limit) return false;
    if (count === 0 && this.counts.size >= this.sweepAt) this.dropIdle();
    this.counts.set(accountId, count + 1);
    // One listener per answer for both (its slot here, its bytes in AnswerMemory): 'close' comes once.
    response.on('close', () => {
      this.counts.set(accountId, Math.max(0, (this.counts.get(accountId) ?? 1) - 1));
      alsoOnClose?.();
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
 * The bytes answers in flight hold, across accounts. A page is charged step by step as it is
 * read, so many pages read at once cannot all grow before any is sent; a step that would pass
 * the limit ends its request with 503 and Retry-After. What an answer took is given back when
 * its response closes (sent, or its connection dropped).
 */
export class AnswerMemory {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  /** A holder for one answer's bytes; `release` gives them back (its response closed). */
  holder(): { hold: HoldAnswerBytes; release: () => void } {
    let taken = 0;
    let closed = false;
    return {
      hold: (bytes) => {
        // Nobody will read what is read for a closed response.
        if (closed) throw new ApiError('SERVICE_UNAVAILABLE', 'The connection closed before the answer was ready');
        if (this.held + bytes > this.limitBytes) {
          throw new ApiError('SERVICE_UNAVAILABLE', 'The service holds as many answers as it can at once; retry in 1 s', undefined, {
            'retry-after': '1',
          });
        }
        this.held += bytes;
        taken += bytes;
      },
      release: () => {
        closed = true;
        this.held -= taken;
        taken = 0;
      },
    };
  }
}
