import type { Dispatcher } from 'undici';
import type { KeyHeader } from './key-headers.js';

/**
 * The most of one answer the client reads: the largest page the service sends (100 templates
 * of up to 256 KiB) is about 26 MiB.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ApiClientOptions {
  baseUrl: string;
  apiKey?: string;
  keyHeader?: KeyHeader;
  /** One deadline per request, for its headers and its whole body (default 30 s). */
  timeoutMs?: number;
  /** Answers longer than this are cut off with a ResponseTooLargeError (default MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
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
  userAgent?: string;
  /** Where the key came from (`env REPORTCTL_API_KEY`, `profile NAME` …), told with a 401. */
  keySource?: string;
  /** Where the base URL came from, told with a 401, a 404 that is not the API's, or no connection. */
  baseUrlSource?: string;
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
  /** Bytes of the body as read: a list walk counts them against its cap. */
  bytes: number;
}
