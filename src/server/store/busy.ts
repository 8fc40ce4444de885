import type { Db } from './db.js';

/**
 * True for SQLite's "another connection holds the lock" failures. Every write is one
 * transaction that starts by taking the lock, so such a failure means nothing was written
 * and the whole operation can be tried again.
 */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * How long one statement may block the thread waiting for a lock. better-sqlite3 waits
 * synchronously, so a server keeps this short and waits between attempts instead
 * (see retryWhileBusy), leaving the event loop free for other requests.
 */
export function setBusyTimeout(db: Db, ms: number): void {
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
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    try {
      return await attempt();
    } catch (error) {
      const left = deadline - now();
      if (!isBusyError(error) || left <= 0) throw error;
      await sleep(Math.min(pause, left));
    }
  }
}
