/** What the service's headers tell about one rate-limit bucket. */
interface BucketState {
  remaining: number;
  resetAt: number;
}

/**
 * The service's rate-limit buckets (reads, writes) as its last answers described them, so
 * that a long job waits for a bucket to refill instead of running into 429.
 */
export class RateLimitBuckets {
  private readonly buckets = new Map<string, BucketState>();

  constructor(private readonly now: () => number) {}

  /** How long to hold the next request of this kind: 0 unless its bucket is empty. */
  waitMs(kind: string): number {
    const bucket = this.buckets.get(kind);
    if (!bucket || bucket.remaining > 0) return 0;
    return Math.max(0, bucket.resetAt - this.now());
  }

  remember(headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    const policy = /^"?([A-Za-z0-9_-]+)"?/.exec(headers['ratelimit-policy'] ?? '')?.[1];
    if (!Number.isFinite(remaining) || !policy) return;
    this.buckets.set(policy, { remaining, resetAt: this.now() + (Number.isFinite(reset) ? reset * 1000 : 1000) });
  }
}

/** Retry-After is seconds or an HTTP date; at least one second either way. */
export function retryAfterMs(header: string | undefined, now: number): number {
  if (header === undefined) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, seconds) * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(1000, date - now) : 1000;
}
