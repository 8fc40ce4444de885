/**
 * Waiting for SQLite's lock, with every time limit in one place. better-sqlite3 waits
 * synchronously, so a server keeps a statement's own wait short and waits between attempts
 * instead (retryWhileBusy), leaving the event loop free for other requests.
 */

/** A statement's wait for a lock when nothing else waits on the thread (admin commands). */
export const BUSY_TIMEOUT_MS = 5000;
/** A statement's wait for a lock while serving; longer waits happen between attempts. */
export const SERVING_BUSY_TIMEOUT_MS = 10;
/** How long a request waits, between attempts, for a lock another process holds. */
export const SERVING_BUSY_DEADLINE_MS = BUSY_TIMEOUT_MS;
/** The first pause between attempts, doubled after each up to the longest. */
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 200;

/** What a busy timeout is set on: a better-sqlite3 connection. */
interface Pragmas {
  pragma(source: string): unknown;
}

/**
 * True for SQLite's "another connection holds the lock" failures. Every write is one
 * transaction that starts by taking the lock, so such a failure means nothing was written
 * and the whole operation can be tried again.
 */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** How long one statement may block the thread waiting for a lock. */
export function setBusyTimeout(db: Pragmas, ms: number): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
}

export interface BusyRetryOptions {
  /** Give up (rethrow the busy error) once this much time has passed. */
  deadlineMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it does not fail busy, backing off from 10 ms to 200 ms between tries. */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, options: BusyRetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => performance.now());
  const deadline = now() + options.deadlineMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      const left = deadline - now();
      if (!isBusyError(error) || left <= 0) throw error;
      await sleep(Math.min(pause, left));
    }
  }
}

/**
 * What a request does with the store: the first attempt at once (nearly always the only one),
 * and only when another process holds the lock, further attempts between waits.
 */
export function whileServing<T>(attempt: () => T | Promise<T>): T | Promise<T> {
  try {
    return attempt();
  } catch (error) {
    if (!isBusyError(error)) throw error;
    return retryWhileBusy(attempt, { deadlineMs: SERVING_BUSY_DEADLINE_MS });
  }
}
