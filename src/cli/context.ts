import type { Env, IOStreams } from './io.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What every command gets from outside; tests pass their own. */
export interface CliDeps {
  io: IOStreams;
  env: Env;
  clock: Clock;
  /** Aborted on SIGINT/SIGTERM: long commands stop cleanly and report exit code 130. */
  signal: AbortSignal;
  /** The Node.js version running us (for `doctor`); tests may pretend another. */
  nodeVersion?: string;
}

/** Options every command accepts (set on the root command, readable from any verb). */
export interface GlobalOptions {
  json?: boolean;
  color?: boolean;
  verbose?: boolean;
  input?: boolean;
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        signal?.removeEventListener('abort', done);
        clearTimeout(timer);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};
