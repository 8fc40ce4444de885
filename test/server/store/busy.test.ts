import { describe, expect, it } from 'vitest';
import { isBusyError, retryWhileBusy, whileServing } from '../../../src/server/store/index.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A fake clock that moves only when the retry loop sleeps. */
function fakeTime() {
  let now = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => now,
    sleep: async (ms: number) => {
      pauses.push(ms);
      now += ms;
    },
  };
}

describe('isBusyError', () => {
  it('knows SQLite lock failures and nothing else', () => {
    expect(isBusyError(busy())).toBe(true);
    expect(isBusyError({ code: 'SQLITE_BUSY_SNAPSHOT' })).toBe(true);
    expect(isBusyError({ code: 'SQLITE_LOCKED' })).toBe(true);
    expect(isBusyError({ code: 'SQLITE_FULL' })).toBe(false);
    expect(isBusyError(new Error('SQLITE_BUSY'))).toBe(false);
    expect(isBusyError(null)).toBe(false);
  });
});

describe('retryWhileBusy', () => {
  it('tries again, backing off, until the attempt stops failing busy', async () => {
    const time = fakeTime();
    let attempts = 0;
    const result = await retryWhileBusy(
      () => {
        attempts++;
        if (attempts < 6) throw busy();
        return 'done';
      },
      { deadlineMs: 5000, ...time },
    );
    expect(result).toBe('done');
    expect(attempts).toBe(6);
    expect(time.pauses).toEqual([10, 20, 40, 80, 160]);
  });

  it('rethrows the busy error once the deadline has passed, never sleeping past it', async () => {
    const time = fakeTime();
    let attempts = 0;
    const failing = retryWhileBusy(
      () => {
        attempts++;
        throw busy();
      },
      { deadlineMs: 1000, ...time },
    );
    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(time.now()).toBe(1000);
    expect(time.pauses.every((pause) => pause <= 200)).toBe(true);
    expect(attempts).toBe(time.pauses.length + 1);
  });

  it('rethrows any other error at once', async () => {
    const time = fakeTime();
    await expect(retryWhileBusy(() => Promise.reject(new RangeError('bug')), { deadlineMs: 5000, ...time })).rejects.toThrow(RangeError);
    expect(time.pauses).toEqual([]);
  });
});

describe('whileServing', () => {
  it('answers at once when the store is not busy, and throws other errors at once', () => {
    expect(whileServing(() => 'page')).toBe('page');
    expect(() =>
      whileServing(() => {
        throw new Error('not a lock');
      }),
    ).toThrow('not a lock');
  });

  it('waits for a lock another process holds, between attempts, then answers', async () => {
    let attempts = 0;
    const answer = whileServing(() => {
      attempts++;
      if (attempts < 3) throw busy();
      return 'page';
    });
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe('page');
    expect(attempts).toBe(3);
  });
});
