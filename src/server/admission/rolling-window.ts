/**
 * Rolling-window limiter: a request is allowed when fewer than `limit` requests of the same
 * bucket were allowed in the last `windowMs`. Exact to the request, unlike fixed windows
 * that allow a double burst at a window edge (why not @fastify/rate-limit).
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be allowed (0 when one is allowed now). */
  resetSeconds: number;
  retryAfterSeconds: number;
}

/**
 * One bucket's allowed requests as runs: `counts[i]` requests allowed at the millisecond
 * `times[i]`, oldest first. Runs before `head` have left the window; `inWindow` counts the
 * requests of the rest. Under load many requests share a millisecond, and a run per
 * millisecond keeps the window's memory a fraction of one entry per request.
 */
interface Bucket {
  times: number[];
  counts: number[];
  head: number;
  inWindow: number;
}

export class RollingWindowLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  take(key: string, limit: number): RateDecision {
    const now = this.now();
    this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { times: [], counts: [], head: 0, inWindow: 0 };
      this.buckets.set(key, bucket);
    }
    const horizon = now - this.windowMs;
    while (bucket.head < bucket.times.length && bucket.times[bucket.head]! <= horizon) {
      bucket.inWindow -= bucket.counts[bucket.head]!;
      bucket.head++;
    }
    // Drop what left the window only now and then: a splice on every request would copy the
    // whole window each time.
    if (bucket.head > 64 && bucket.head * 2 > bucket.times.length) {
      bucket.times = bucket.times.slice(bucket.head);
      bucket.counts = bucket.counts.slice(bucket.head);
      bucket.head = 0;
    }

    const allowed = bucket.inWindow < limit;
    if (allowed) {
      const last = bucket.times.length - 1;
      // Only the newest run grows, and only at its own millisecond: a clock that steps back
      // starts a run of its own.
      if (last >= bucket.head && bucket.times[last] === now) bucket.counts[last]! += 1;
      else {
        bucket.times.push(now);
        bucket.counts.push(1);
      }
      bucket.inWindow += 1;
    }
    const remaining = Math.max(0, limit - bucket.inWindow);
    const oldest = bucket.times[bucket.head];
    // When the oldest request leaves the window, one more slot frees up.
    const untilFree = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return {
      allowed,
      limit,
      remaining,
      resetSeconds: untilFree,
      retryAfterSeconds: allowed ? 0 : Math.max(1, untilFree),
    };
  }

  /**
   * What `take` would say of the bucket, without taking from it or making it: the count on an
   * response that spends nothing (one refused before it reached a bucket).
   */
  peek(key: string, limit: number): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    let inWindow = 0;
    let oldest: number | undefined;
    if (bucket) {
      for (let run = bucket.times.length - 1; run >= bucket.head && bucket.times[run]! > now - this.windowMs; run--) {
        inWindow += bucket.counts[run]!;
        oldest = bucket.times[run];
      }
    }
    const untilFree = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return { allowed: inWindow < limit, limit, remaining: Math.max(0, limit - inWindow), resetSeconds: untilFree, retryAfterSeconds: 0 };
  }

  /** Forget idle buckets now and then so the map does not grow without bound. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      const last = bucket.times[bucket.times.length - 1];
      if (last === undefined || last <= now - this.windowMs) this.buckets.delete(key);
    }
  }
}
