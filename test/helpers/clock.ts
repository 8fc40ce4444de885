import type { Clock } from '../../src/cli/context.js';

export interface FakeClock extends Clock {
  /** Every sleep asked for, in milliseconds, in order. */
  slept: number[];
  /** Milliseconds moved since the clock was made. */
  elapsed(): number;
}

/**
 * A clock that moves only when slept on, so minutes pass at once. Give its `now` to the
 * in-process service too and the rate limits' windows pass with the CLI's waits.
 */
export function fakeClock(startIso = '2026-05-01T10:00:00.000Z'): FakeClock {
  const start = Date.parse(startIso);
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    elapsed: () => now - start,
  };
}
