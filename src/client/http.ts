import { requestKindOfRequest } from '../contract/endpoints.js';
import { NetworkError, RateLimitedError, UnexpectedResponseError } from './errors.js';
import type { ApiClientOptions, ApiResult, RequestOptions } from './options.js';
import { RateLimitBuckets, retryAfterMs } from './rate-limit.js';
import { toApiError } from './response-errors.js';
import { NOT_RECEIVED_STATUS, TRANSIENT_CODES, TRANSIENT_STATUS, backoffMs } from './retry.js';
import { conforms, type ResponseShape } from './response-validation.js';
import { sendOnce } from './transport.js';

export type { KeyHeader } from './key-headers.js';
export type { ApiClientOptions, ApiResult, RequestOptions } from './options.js';


/**
 * The service's client: one request at a time, paced under the rate limit, 429s waited out,
 * GETs retried on transient failures, and every other failure a typed error.
 */
export class ApiClient {
  private readonly buckets: RateLimitBuckets;
  readonly baseUrl: string;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.buckets = new RateLimitBuckets(options.now);
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async get<T>(path: string, shape: ResponseShape<T>, options: RequestOptions = {}): Promise<T> {
    return this.parse(shape, await this.request('GET', path, options));
  }

  async send<T>(method: 'POST' | 'PUT', path: string, body: unknown, shape: ResponseShape<T>): Promise<T> {
    return this.parse(shape, await this.request(method, path, { body }));
  }

  /**
   * Reads a 2xx body leniently: unknown fields pass, but the shape must be the contract's.
   * Returns the service's own value, not zod's copy: the same content (response schemas have
   * no defaults or transforms) in the service's key order, so --json prints what it sent.
   */
  async parse<T>(shape: ResponseShape<T>, result: ApiResult): Promise<T> {
    const parsed = await conforms(shape, result.body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UnexpectedResponseError(result.url, first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'invalid body');
    }
    return parsed.data;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    const url = this.url(path, options.query);
    const bare = path.split('?')[0]!;
    const kind = requestKindOfRequest(method, bare) === 'read' ? 'reads' : 'writes';
    const maxRateLimit = this.options.maxRateLimitRetries ?? 5;
    const maxTransient = method === 'GET' ? (this.options.maxTransientRetries ?? 3) : 0;
    const signal = options.signal ?? this.options.signal;
    let rateLimited = 0;
    let transient = 0;
    for (;;) {
      await this.pace(kind, signal);
      let result: ApiResult;
      try {
        result = await sendOnce(this.options, method, url, options.body, signal, options.headers);
      } catch (error) {
        if (error instanceof NetworkError && TRANSIENT_CODES.has(error.code) && transient < maxTransient && !signal?.aborted) {
          transient += 1;
          await this.backoff(transient, error.reason, signal);
          continue;
        }
        if (error instanceof NetworkError && this.options.baseUrlSource !== undefined) error.baseUrlSource = this.options.baseUrlSource;
        throw error;
      }
      this.buckets.remember(result.headers);
      if (result.status === 429) {
        const waitMs = retryAfterMs(result.headers['retry-after'], this.options.now());
        if (rateLimited >= maxRateLimit || waitMs > (this.options.maxRetryAfterMs ?? 120_000)) {
          throw new RateLimitedError(Math.ceil(waitMs / 1000), method, url, rateLimited + 1);
        }
        rateLimited += 1;
        // A 429 was not processed, so repeating even a POST is safe.
        await this.wait((left) => `rate limited; retrying in ${Math.ceil(left / 1000)} s`, waitMs, 'rate-limit', signal);
        continue;
      }
      const notReceived = result.status === NOT_RECEIVED_STATUS;
      if ((TRANSIENT_STATUS.has(result.status) || notReceived) && transient < (notReceived ? (this.options.maxTransientRetries ?? 3) : maxTransient)) {
        transient += 1;
        await this.backoff(transient, `service answered ${result.status}`, signal);
        continue;
      }
      if (result.status === 304 && options.headers?.['if-none-match'] !== undefined) return result;
      // A 3xx is not success either: redirects are not followed (the key would go along).
      if (result.status >= 300) {
        const error = await toApiError(result, method);
        if (result.status === 401 && this.options.keySource !== undefined) error.keySource = this.options.keySource;
        if (this.options.baseUrlSource !== undefined) error.baseUrlSource = this.options.baseUrlSource;
        throw error;
      }
      return result;
    }
  }

  /** Long jobs never hit 429: when a bucket is empty, wait until the service says it refills. */
  private async pace(kind: string, signal?: AbortSignal): Promise<void> {
    const waitMs = this.buckets.waitMs(kind);
    if (waitMs <= 0) return;
    await this.wait((left) => `pacing to the rate limit; next request in ${Math.ceil(left / 1000)} s`, waitMs, 'rate-limit', signal);
  }

  private async backoff(attempt: number, reason: string, signal?: AbortSignal): Promise<void> {
    const waitMs = backoffMs(attempt, this.options.random ?? Math.random);
    await this.wait((left) => `${reason}; retry ${attempt} in ${(left / 1000).toFixed(1)} s`, waitMs, 'retry', signal);
  }

  /** A deliberate wait, told first (spinners show it); Ctrl-C during it stops the request. */
  private async wait(reason: (msLeft: number) => string, waitMs: number, cause: 'rate-limit' | 'retry', signal?: AbortSignal): Promise<void> {
    this.options.onWait?.(reason, waitMs, cause);
    await this.options.sleep(waitMs, signal);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }
}
