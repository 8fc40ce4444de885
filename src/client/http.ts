import type { Dispatcher } from 'undici';
// undici's request API, proxy agent and errors by path: its index loads fetch, WebSocket,
// caches and mocks too, which a one-shot command would pay for at every start.
import request from 'undici/lib/api/api-request.js';
import undiciErrors from 'undici/lib/core/errors.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import undiciApi from 'undici/lib/api/index.js';
import UndiciDispatcher from 'undici/lib/dispatcher/dispatcher.js';
import type { z } from 'zod';
import { errorBodySchema } from '../contract/index.js';
import { ApiResponseError, NetworkError, RateLimitedError, UnexpectedResponseError } from './errors.js';

import type { KeyHeader } from './key-headers.js';
export type { KeyHeader } from './key-headers.js';

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
  /** Told before every deliberate wait (spinners show it). */
  onWait?: (reason: string, ms: number, cause: 'rate-limit' | 'retry') => void;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
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

/** What the service's headers tell about one rate-limit bucket. */
interface BucketState {
  remaining: number;
  resetAt: number;
}

const TRANSIENT_STATUS = new Set([502, 503, 504]);
/** Network failures worth another try for a GET; an unknown host or a bad request is not. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
/** POSTs the service counts as reads. */
const READ_POSTS = [/\/templates\/validate-formula\/?$/, /\/api\/v0\/analyses\/?$/];

let sharedDispatcher: Dispatcher | undefined;
/** One keep-alive pool per process; EnvHttpProxyAgent honours HTTPS_PROXY / NO_PROXY. */
function defaultDispatcher(): Dispatcher {
  if (sharedDispatcher === undefined) {
    // What undici's index does as it loads: the proxy agent calls connect() on its client.
    Object.assign(UndiciDispatcher.prototype, undiciApi);
  }
  sharedDispatcher ??= new EnvHttpProxyAgent();
  return sharedDispatcher;
}

export class ApiClient {
  private readonly buckets = new Map<string, BucketState>();
  readonly baseUrl: string;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async get<T extends z.ZodType>(path: string, schema: T, options: RequestOptions = {}): Promise<z.infer<T>> {
    return this.parse(schema, await this.request('GET', path, options));
  }

  async send<T extends z.ZodType>(method: 'POST' | 'PUT', path: string, body: unknown, schema: T): Promise<z.infer<T>> {
    return this.parse(schema, await this.request(method, path, { body }));
  }

  /**
   * Reads a 2xx body leniently: unknown fields pass, but the shape must be the contract's.
   * Returns the service's own value, not zod's copy: the same content (response schemas have
   * no defaults or transforms) in the service's key order, so --json prints what it sent.
   */
  parse<T extends z.ZodType>(schema: T, result: ApiResult): z.infer<T> {
    // No JIT: compiling a fast path for the schema costs more than one answer's parse saves.
    const parsed = schema.safeParse(result.body, { jitless: true });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UnexpectedResponseError(result.url, first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'invalid body');
    }
    return result.body as z.infer<T>;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    const url = this.url(path, options.query);
    const bare = path.split('?')[0]!;
    const kind = method === 'GET' || method === 'HEAD' || READ_POSTS.some((pattern) => pattern.test(bare)) ? 'reads' : 'writes';
    const maxRateLimit = this.options.maxRateLimitRetries ?? 5;
    const maxTransient = method === 'GET' ? (this.options.maxTransientRetries ?? 3) : 0;
    const signal = options.signal ?? this.options.signal;
    let rateLimited = 0;
    let transient = 0;
    for (;;) {
      await this.pace(kind, signal);
      let result: ApiResult;
      try {
        result = await this.once(method, url, options.body, signal, options.headers);
      } catch (error) {
        if (error instanceof NetworkError && TRANSIENT_CODES.has(error.code) && transient < maxTransient && !signal?.aborted) {
          transient += 1;
          await this.backoff(transient, error.reason, signal);
          continue;
        }
        throw error;
      }
      this.remember(result.headers);
      if (result.status === 429) {
        const waitMs = retryAfterMs(result.headers['retry-after'], this.options.now());
        if (rateLimited >= maxRateLimit || waitMs > (this.options.maxRetryAfterMs ?? 120_000)) {
          throw new RateLimitedError(Math.ceil(waitMs / 1000), method, url, rateLimited + 1);
        }
        rateLimited += 1;
        // A 429 was not processed, so repeating even a POST is safe.
        this.options.onWait?.(`rate limited; retrying in ${Math.ceil(waitMs / 1000)} s`, waitMs, 'rate-limit');
        await this.options.sleep(waitMs, signal);
        if (signal?.aborted) throw signal.reason ?? new Error('aborted');
        continue;
      }
      if (TRANSIENT_STATUS.has(result.status) && transient < maxTransient) {
        transient += 1;
        await this.backoff(transient, `service answered ${result.status}`, signal);
        continue;
      }
      if (result.status === 304 && options.headers?.['if-none-match'] !== undefined) return result;
      // A 3xx is not success either: redirects are not followed (the key would go along).
      if (result.status >= 300) {
        const error = toApiError(result, method);
        if (result.status === 401 && this.options.keySource !== undefined) error.keySource = this.options.keySource;
        throw error;
      }
      return result;
    }
  }

  /** Long jobs never hit 429: when a bucket is empty, wait until the service says it refills. */
  private async pace(kind: string, signal?: AbortSignal): Promise<void> {
    const bucket = this.buckets.get(kind);
    if (!bucket || bucket.remaining > 0) return;
    const waitMs = bucket.resetAt - this.options.now();
    if (waitMs <= 0) return;
    this.options.onWait?.(`pacing to the rate limit; next request in ${Math.ceil(waitMs / 1000)} s`, waitMs, 'rate-limit');
    await this.options.sleep(waitMs, signal);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }

  private remember(headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    const policy = /^"?([A-Za-z0-9_-]+)"?/.exec(headers['ratelimit-policy'] ?? '')?.[1];
    if (!Number.isFinite(remaining) || !policy) return;
    this.buckets.set(policy, { remaining, resetAt: this.options.now() + (Number.isFinite(reset) ? reset * 1000 : 1000) });
  }

  private async backoff(attempt: number, reason: string, signal?: AbortSignal): Promise<void> {
    // Exponential with full jitter: 250 ms, 500 ms, 1 s ... capped at 8 s.
    const ceiling = Math.min(8000, 250 * 2 ** (attempt - 1));
    const waitMs = Math.round(ceiling / 2 + ((this.options.random ?? Math.random)() * ceiling) / 2);
    this.options.onWait?.(`${reason}; retry ${attempt} in ${(waitMs / 1000).toFixed(1)} s`, waitMs, 'retry');
    await this.options.sleep(waitMs, signal);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }

  private async once(method: string, url: string, body: unknown, signal?: AbortSignal, extra: RequestOptions['headers'] = {}): Promise<ApiResult> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'reportctl',
    };
    for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
    if (this.options.apiKey) {
      const header = this.options.keyHeader ?? 'apiKey';
      headers[header] = header === 'Authorization' ? `Bearer ${this.options.apiKey}` : this.options.apiKey;
    }
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const trace = this.options.trace;
    const started = this.options.now();
    if (trace) {
      trace(`> ${method} ${url}`);
      for (const [name, value] of Object.entries(headers)) trace(`> ${name}: ${redact(name, value)}`);
      if (payload !== undefined) trace(`> (${Buffer.byteLength(payload)} bytes of JSON)`);
    }
    const timeout = this.options.timeoutMs ?? 30_000;
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      const target = new URL(url);
      response = await request.call(this.options.dispatcher ?? defaultDispatcher(), {
        origin: target.origin,
        path: target.pathname + target.search,
        method: method as Dispatcher.HttpMethod,
        headers,
        ...(payload !== undefined ? { body: payload } : {}),
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(signal ? { signal } : {}),
      });
      text = await response.body.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw toNetworkError(error, url, timeout);
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (trace) {
      trace(`< ${response.statusCode} (${this.options.now() - started} ms)`);
      for (const [name, value] of Object.entries(responseHeaders)) trace(`< ${name}: ${value}`);
    }
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        if (response.statusCode < 300) throw new UnexpectedResponseError(url, 'the body is not JSON');
        parsed = text;
      }
    }
    return { status: response.statusCode, headers: responseHeaders, body: parsed, url };
  }
}

function redact(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'apikey' || lower === 'x-api-key') return '<redacted>';
  if (lower === 'authorization') return value.replace(/^(\w+\s+).*$/, '$1<redacted>');
  return value;
}

/** Retry-After is seconds or an HTTP date; at least one second either way. */
export function retryAfterMs(header: string | undefined, now: number): number {
  if (header === undefined) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, seconds) * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(1000, date - now) : 1000;
}

function toApiError(result: ApiResult, method: string): ApiResponseError {
  if (result.status < 400) {
    const location = result.headers.location;
    const message = `the service answered ${result.status}, a redirect${location ? ` to ${location}` : ''}; reportctl does not follow redirects`;
    return new ApiResponseError(result.status, `HTTP_${result.status}`, message, [], method, result.url);
  }
  const body = errorBodySchema.safeParse(result.body);
  if (body.success) {
    return new ApiResponseError(result.status, body.data.error, body.data.message, body.data.issues ?? [], method, result.url);
  }
  const text = typeof result.body === 'string' ? describeForeignBody(result.body, result.headers['content-type']) : '';
  return new ApiResponseError(result.status, `HTTP_${result.status}`, text || `HTTP ${result.status}`, [], method, result.url);
}

/**
 * An error body that is not the service's JSON (a proxy's HTML page, plain text), as one
 * short line: a page's title, not its markup.
 */
function describeForeignBody(text: string, contentType = ''): string {
  if (/html/i.test(contentType) || /^\s*</.test(text)) {
    const heading = /<title[^>]*>([^<]*)</i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)</i.exec(text)?.[1] ?? '';
    // eslint-disable-next-line no-control-regex
    const title = heading.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').replace(/^\d{3}\s+/, '').trim();
    return `${title ? `${title.slice(0, 100)}: ` : ''}an HTML page, not the service's JSON (a proxy or gateway in the way?)`;
  }
  // Control characters too: a stranger's body must not drive the user's terminal.
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'reset before the answer was complete',
  UND_ERR_SOCKET: 'closed before the answer was complete',
  UND_ERR_CLOSED: 'closed before the answer was complete',
  EPIPE: 'closed while the request was being sent',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function toNetworkError(error: unknown, url: string, timeoutMs: number): NetworkError {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const own = (error as { code?: unknown }).code;
  const code = typeof cause?.code === 'string' ? cause.code : typeof own === 'string' ? own : '';
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new NetworkError(url, `waited ${timeoutMs / 1000} s`, true, code);
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new NetworkError(new URL(url).origin, 'the connection was not accepted', true, code);
  }
  const known = NETWORK_REASONS[code];
  const reason = known ? `${known} (${code})` : code || (error instanceof Error ? error.message : String(error)) || 'connection failed';
  return new NetworkError(new URL(url).origin, reason, false, code);
}
