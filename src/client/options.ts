import type { Dispatcher } from 'undici';
import type { KeyHeader } from './key-headers.js';

export interface ApiClientOptions {
  baseUrl: string;
  apiKey?: string;
  keyHeader?: KeyHeader;
  /** Per request, headers and body each (default 30 s). */
  timeoutMs?: number;
  /** 429s waited out before giving up (default 5). */
  maxRateLimitRetries?: number;
  /** GET retries on 502/503/504 and broken connections (default 3). */
  maxTransientRetries?: number;
  /** Longest single wait the client accepts for Retry-After (default 120 s). */
  maxRetryAfterMs?: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random?: () => number;
  /** --verbose: one line per request and response header, the key redacted. */
  trace?: (line: string) => void;
  /**
   * Told before every deliberate wait (spinners show it); `reason` says it with the time left,
   * so a spinner can count down.
   */
  onWait?: (reason: (msLeft: number) => string, ms: number, cause: 'rate-limit' | 'retry') => void;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** Requests wait for it first: the process's HTTP parser, compiling in the background. */
  parserReady?: PromiseLike<unknown>;
  userAgent?: string;
  /** Where the key came from (`env REPORTCTL_API_KEY`, `profile NAME` …), told with a 401. */
  keySource?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** `if-none-match` makes a 304 an answer (the cached copy is still good), not an error. */
  headers?: { 'if-none-match'?: string };
}

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  url: string;
}
