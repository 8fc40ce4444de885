import { describe, expect, it } from 'vitest';
import { pollDelayMs } from '../../src/dashboard/pacing.js';

// The queue-runs view polls at pollDelayMs(interval, what the last answer's rate-limit headers said).
describe('the dashboard paces its polling by X-RateLimit-Remaining', () => {
  it('polls at the interval while reads are plenty, or before any answer said', () => {
    expect(pollDelayMs(2000, null)).toBe(2000);
    expect(pollDelayMs(2000, { remaining: 100, resetSeconds: 60 })).toBe(2000);
  });

  it('spreads the reads left over the rest of the window when few are left', () => {
    // 4 reads for 40 s: one every 10 s, so the page never runs dry before the reset.
    expect(pollDelayMs(2000, { remaining: 4, resetSeconds: 40 })).toBe(10_000);
  });

  it('waits for the reset when none are left', () => {
    expect(pollDelayMs(2000, { remaining: 0, resetSeconds: 17 })).toBe(17_000);
    expect(pollDelayMs(2000, { remaining: 0, resetSeconds: 0 })).toBe(2000);
  });
});
