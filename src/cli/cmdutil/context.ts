import type { Dispatcher } from 'undici';
import type { ServiceApi } from '../../client/api.js';
import type { KeyHeader } from '../../client/key-headers.js';
import type { Editor } from '../iostreams/editor.js';
import type { Env, IOStreams } from '../iostreams/io.js';
import type { Prompter } from '../iostreams/prompter.js';
import type { Sleep } from '../iostreams/progress.js';
import type { GlobalFlags } from './verb.js';

export interface Clock {
  now(): number;
  sleep: Sleep;
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
  /**
   * The service as the global options, the profile and the environment configure it, built
   * on first call (undici and the rest load only then).
   */
  api(options: GlobalOptions, tuning?: ApiTuning): Promise<Session>;
  prompter: Prompter;
  editor: Editor;
  /** Where requests go; tests give undici's MockAgent. Default: the shared proxy-aware agent. */
  dispatcher?: Dispatcher;
  /**
   * Runs `listener` (synchronous) as the process exits, until the returned function is called:
   * what a command started must not outlive it (`serve --exec`'s process group). main.ts gives it.
   */
  atExit?: (listener: () => void) => () => void;
}

/** For commands that need the client other than the usual way. */
export interface ApiTuning {
  /** Instead of `CliDeps.signal` (a deadline of the command's own). */
  signal?: AbortSignal;
  /** Instead of REPORTCTL_TIMEOUT_MS or the client's default. */
  timeoutMs?: number;
  /** false: one attempt, no waiting out 429s or retrying 5xx. */
  retries?: false;
  /** Instead of the client's default cap on one answer's size. */
  maxResponseBytes?: number;
  /** A profile missing from the config file is not refused: `auth login` creates it, `doctor` reports it. */
  newProfile?: true;
}

/** The service a command talks to and how: flag, environment, profile and default resolved (session/config.ts). */
export interface Settings {
  profileName: string;
  baseUrl: string;
  apiKey?: string;
  keyHeader: KeyHeader;
  language: 'en' | 'es';
  /** Where each value came from, for `config list` and `doctor`. */
  sources: { baseUrl: string; apiKey: string };
}

/** What a command that talks to the service needs, built once per invocation. */
export interface Session {
  settings: Settings;
  api: ServiceApi;
}

/** Options every command accepts (declared on the root, readable from any verb). */
export type GlobalOptions = Partial<GlobalFlags>;

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
