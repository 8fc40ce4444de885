import type { Clock } from '../../src/cli/cmdutil/context.js';

export interface FakeClock extends Clock {
  /** Every sleep asked for, in milliseconds, in order. */
  slept: number[];
  /** Milliseconds moved since the clock was made. */
  elapsed(): number;
}

/**
 * A clock that moves only when slept on, so minutes pass at once. Give its `now` to the
 * in-process service too and the rate limits' windows pass with the CLI's waits. `onSleep`
 * runs at each sleep (told how many so far): what the world does between two polls.
 */
export function fakeClock(options: { startIso?: string; onSleep?: (count: number) => Promise<void> | void } = {}): FakeClock {
  const start = Date.parse(options.startIso ?? '2026-05-01T10:00:00.000Z');
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      await options.onSleep?.(slept.length);
    },
    elapsed: () => now - start,
  };
}
