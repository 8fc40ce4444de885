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

export class RollingWindowLimiter {
  private readonly buckets = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  take(bucket: string, limit: number): RateDecision {
    const now = this.now();
    this.sweep(now);
    let times = this.buckets.get(bucket);
    if (!times) {
      times = [];
      this.buckets.set(bucket, times);
    }
    const horizon = now - this.windowMs;
    let expired = 0;
    while (expired < times.length && times[expired]! <= horizon) expired++;
    if (expired > 0) times.splice(0, expired);

    const allowed = times.length < limit;
    if (allowed) times.push(now);
    const remaining = Math.max(0, limit - times.length);
    const oldest = times[0];
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
    for (const [bucket, times] of this.buckets) {
      const last = times[times.length - 1];
      if (last === undefined || last <= now - this.windowMs) this.buckets.delete(bucket);
    }
  }
}
