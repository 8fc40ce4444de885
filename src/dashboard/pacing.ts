/** What the last answer said about the rate-limit bucket of its kind (reads or writes). */
export interface RateBucket {
  remaining: number;
  resetSeconds: number;
}

/**
 * How long to wait before the next poll: the interval while reads are left, spread over what
 * is left of the window when few are, and the whole reset time when none are (as `watch` and
 * the CLI's client pace themselves).
 */
export function pollDelayMs(intervalMs: number, reads: RateBucket | null): number {
  if (!reads) return intervalMs;
  const resetMs = Math.max(0, reads.resetSeconds) * 1000;
  if (reads.remaining <= 0) return Math.max(intervalMs, resetMs);
  return Math.max(intervalMs, Math.ceil(resetMs / reads.remaining));
}
