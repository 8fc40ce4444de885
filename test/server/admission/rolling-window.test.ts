import { describe, expect, it } from 'vitest';
import { RollingWindowLimiter } from '../../../src/server/admission/rolling-window.js';

/** The rolling window (src/server/admission/rolling-window.ts) on a clock the test moves. */
function limiterAt(start: number, windowMs = 60_000) {
  const clock = { now: start };
  return { clock, limiter: new RollingWindowLimiter(windowMs, () => clock.now) };
}

describe('RollingWindowLimiter', () => {
  it('counts every request of a burst within one millisecond', () => {
    const { limiter } = limiterAt(1_000);
    expect([1, 2, 3].map(() => limiter.take('a', 3).remaining)).toEqual([2, 1, 0]);
    const refused = limiter.take('a', 3);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 60 });
    // A refused request takes no slot, and another bucket is not held up.
    expect(limiter.take('b', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('peek says what take would, and takes nothing: an unknown bucket is full, a used one counts its window', () => {
    const { clock, limiter } = limiterAt(1_000);
    expect(limiter.peek('a', 3)).toMatchObject({ allowed: true, remaining: 3, resetSeconds: 0 });
    limiter.take('a', 3);
    clock.now += 20_000;
    limiter.take('a', 3);
    expect([limiter.peek('a', 3), limiter.peek('a', 3)]).toMatchObject([
      { remaining: 1, resetSeconds: 40 },
      { remaining: 1, resetSeconds: 40 },
    ]);
    // The first request leaves the window: one more free.
    clock.now += 40_000;
    expect(limiter.peek('a', 3)).toMatchObject({ remaining: 2, resetSeconds: 20 });
    expect(limiter.take('a', 3).remaining).toBe(1);
  });

  it('frees a whole millisecond’s requests when it leaves the window, and only then', () => {
    const { clock, limiter } = limiterAt(0);
    limiter.take('a', 4);
    limiter.take('a', 4);
    clock.now = 500;
    limiter.take('a', 4);
    limiter.take('a', 4);
    expect(limiter.take('a', 4).allowed).toBe(false);
    // Still inside: the window is the last 60 s, its oldest edge excluded.
    clock.now = 59_999;
    expect(limiter.take('a', 4)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.now = 60_000;
    expect(limiter.take('a', 4)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 1 });
    expect(limiter.take('a', 4)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('a', 4).allowed).toBe(false);
    clock.now = 60_500;
    expect(limiter.take('a', 4)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('keeps the count exact when the clock steps back', () => {
    const { clock, limiter } = limiterAt(10_000);
    limiter.take('a', 3);
    clock.now = 9_000;
    limiter.take('a', 3);
    clock.now = 10_000;
    expect(limiter.take('a', 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('a', 3).allowed).toBe(false);
    // Requests leave in the order they came: the one stamped 9 s waits behind the first.
    clock.now = 69_999;
    expect(limiter.take('a', 3).allowed).toBe(false);
    clock.now = 70_000;
    expect(limiter.take('a', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('stays exact past the point where it drops what left the window', () => {
    const { clock, limiter } = limiterAt(0, 1_000);
    // 300 milliseconds of one request each, then the window moves past 200 of them at once.
    for (let ms = 0; ms < 300; ms++) {
      clock.now = ms;
      expect(limiter.take('a', 1_000).allowed).toBe(true);
    }
    clock.now = 1_199;
    expect(limiter.take('a', 1_000).remaining).toBe(1_000 - 101);
    clock.now = 1_299;
    expect(limiter.take('a', 1_000).remaining).toBe(1_000 - 2);
  });
});
