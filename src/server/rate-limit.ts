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

/** One bucket's allowed requests, oldest first; those before `head` have left the window. */
interface Bucket {
  times: number[];
  head: number;
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
      bucket = { times: [], head: 0 };
      this.buckets.set(key, bucket);
    }
    const horizon = now - this.windowMs;
    while (bucket.head < bucket.times.length && bucket.times[bucket.head]! <= horizon) bucket.head++;
    // Drop what left the window only now and then: a splice on every request would copy the
    // whole window each time (tens of thousands of entries under a high test limit).
    if (bucket.head > 64 && bucket.head * 2 > bucket.times.length) {
      bucket.times = bucket.times.slice(bucket.head);
      bucket.head = 0;
    }

    const inWindow = bucket.times.length - bucket.head;
    const allowed = inWindow < limit;
    if (allowed) bucket.times.push(now);
    const remaining = Math.max(0, limit - (bucket.times.length - bucket.head));
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
