import type { ServerResponse } from 'node:http';

/**
 * Enough for a dashboard's parallel reads; few enough that one account's largest pages
 * (100 templates of up to 256 KiB each) cannot fill the memory (bench/memory-amplification.mjs).
 */
export const MAX_IN_FLIGHT_PER_ACCOUNT = 4;

/**
 * Requests of one account being answered at once, counted until their response has been
 * sent (or its connection dropped), so a large answer a slow client has not read yet still
 * counts. What one account can make the server hold at a time is this many answers, however
 * many connections it opens; other accounts are not waiting behind it.
 */
export class InFlightLimiter {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Counts the request in and returns true, or returns false when the account is at the limit. */
  enter(accountId: string, response: ServerResponse): boolean {
    const count = this.counts.get(accountId) ?? 0;
    if (count >= this.limit) return false;
    this.counts.set(accountId, count + 1);
    // 'close' comes once, after the last byte was handed to the socket or when the socket died.
    response.once('close', () => {
      const left = (this.counts.get(accountId) ?? 1) - 1;
      if (left === 0) this.counts.delete(accountId);
      else this.counts.set(accountId, left);
    });
    return true;
  }
}
