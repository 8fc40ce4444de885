import type { ValidationIssue } from '../contract/index.js';

/** The service answered with an error body (or at least an error status). */
export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ValidationIssue[] = [],
    readonly method: string = 'GET',
    readonly url: string = '',
  ) {
    super(message);
    this.name = 'ApiResponseError';
  }

  /** On a 401: where the key that was refused came from. */
  keySource?: string;
  /** Where the base URL came from (`flag`, `env REPORTCTL_BASE_URL`, `profile NAME`, `default`). */
  baseUrlSource?: string;

  /**
   * A 404 that names no resource of the API: no route for the path, or an answer without the
   * service's error body (another server at the base URL).
   */
  get missingRoute(): boolean {
    return this.status === 404 && (this.code.startsWith('HTTP_') || this.message.startsWith('No route '));
  }
}

/** Still 429 after the bounded retries. */
export class RateLimitedError extends ApiResponseError {
  constructor(
    readonly retryAfterSeconds: number,
    method: string,
    url: string,
    attempts: number,
  ) {
    super(429, 'RATE_LIMITED', `still rate limited after ${attempts} attempts (the service asks to wait ${retryAfterSeconds} s)`, [], method, url);
    this.name = 'RateLimitedError';
  }
}

/** Codes that mean no connection was made at all. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The service could not be reached, or the connection broke, or it did not answer in time. */
export class NetworkError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly timedOut = false,
    /** The system or undici code (ECONNREFUSED, UND_ERR_SOCKET ...), '' when there is none. */
    readonly code = '',
  ) {
    super(
      timedOut
        ? `no answer from ${url} in time (${reason})`
        : UNREACHABLE.has(code) || code === ''
          ? `cannot reach ${url}: ${reason}`
          : `lost the connection to ${url}: ${reason}`,
    );
    this.name = 'NetworkError';
  }

  /** Where the base URL came from (`flag`, `env REPORTCTL_BASE_URL`, `profile NAME`, `default`). */
  baseUrlSource?: string;
}

const MIB = 1024 * 1024;

/** An answer longer than the client reads: cut off there, never held whole. */
export class ResponseTooLargeError extends NetworkError {
  constructor(
    url: string,
    readonly limitBytes: number,
  ) {
    super(url, `larger than ${limitBytes % MIB === 0 ? `${limitBytes / MIB} MiB` : `${limitBytes} bytes`}`, false, 'RESPONSE_TOO_LARGE');
    this.message = `the answer from ${url} is ${this.reason}; not read further`;
    this.name = 'ResponseTooLargeError';
  }
}

/** A 2xx whose body is not what the contract describes, even read leniently. */
export class UnexpectedResponseError extends Error {
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(`unexpected response from ${url}: ${detail}`);
    this.name = 'UnexpectedResponseError';
  }
}

/**
 * A list walk the service would not let end: more items or bytes than any honest account has,
 * a total grown past the pages first announced, or a page sent twice. Nothing after it is read.
 */
export class ListOverrunError extends Error {
  constructor(
    readonly path: string,
    detail: string,
    readonly caps: { items: number; bytes: number },
  ) {
    super(`the service's list ${path} ${detail}; reportctl stopped reading it`);
    this.name = 'ListOverrunError';
  }
}
