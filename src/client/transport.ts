import type { Dispatcher } from 'undici';
// undici's request API, proxy agent and errors by path: its index loads fetch, WebSocket,
// caches and mocks too, which a one-shot command would pay for at every start. Not undici's
// public API: test/client/undici-internals.test.ts fails when an upgrade moves them.
import request from 'undici/lib/api/api-request.js';
import undiciErrors from 'undici/lib/core/errors.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import connect from 'undici/lib/api/api-connect.js';
import UndiciDispatcher from 'undici/lib/dispatcher/dispatcher.js';
import { NetworkError, ResponseTooLargeError, UnexpectedResponseError } from './errors.js';
import { MAX_RESPONSE_BYTES, type ApiClientOptions, type ApiResult, type RequestOptions } from './options.js';

/**
 * Never proxied unless NO_PROXY is set (then it decides, as given): a request to this machine
 * through a proxy hands the proxy the key for nothing.
 */
const LOOPBACK_NO_PROXY = 'localhost,127.0.0.1,[::1]';

/** NO_PROXY as undici reads it, or the loopback names when neither spelling is set. */
function noProxyFrom(env: Record<string, string | undefined>): string {
  return env.NO_PROXY ?? env.no_proxy ?? LOOPBACK_NO_PROXY;
}

let sharedDispatcher: Dispatcher | undefined;
/** One keep-alive pool per process; EnvHttpProxyAgent honours HTTPS_PROXY / NO_PROXY. */
function defaultDispatcher(): Dispatcher {
  if (sharedDispatcher === undefined) {
    // Part of what undici's index does as it loads: the proxy agent calls connect() on its
    // client. Not its stream, pipeline and upgrade APIs, which nothing here calls.
    Object.assign(UndiciDispatcher.prototype, { request, connect });
  }
  sharedDispatcher ??= new EnvHttpProxyAgent({ noProxy: noProxyFrom(process.env) });
  return sharedDispatcher;
}

/**
 * One request and its answer, whatever the status: the key and JSON body on the way out,
 * the trace for --verbose, and undici's failures as a NetworkError. No retries here.
 */
export async function sendOnce(
  options: ApiClientOptions,
  method: string,
  url: string,
  body: unknown,
  signal?: AbortSignal,
  extra: RequestOptions['headers'] = {},
): Promise<ApiResult> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = requestHeaders(options, extra, body !== undefined);
  const trace = options.trace;
  const started = options.now();
  if (trace) {
    trace(`> ${method} ${url}`);
    for (const [name, value] of Object.entries(headers)) trace(`> ${name}: ${redact(name, value)}`);
    if (payload !== undefined) trace(`> (${Buffer.byteLength(payload)} bytes of JSON)`);
  }
  const { response, text, bytes } = await exchange(options, method, url, headers, payload, signal);
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (trace) {
    trace(`< ${response.statusCode} (${options.now() - started} ms)`);
    for (const [name, value] of Object.entries(responseHeaders)) trace(`< ${name}: ${value}`);
  }
  return { status: response.statusCode, headers: responseHeaders, body: parsedBody(text, response.statusCode, url), url, bytes };
}

/** What every request sends: accept, user agent, the caller's extra headers, the key, and the body's type. */
function requestHeaders(options: ApiClientOptions, extra: NonNullable<RequestOptions['headers']>, json: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'reportctl',
  };
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
  if (options.apiKey) {
    const header = options.keyHeader ?? 'apiKey';
    headers[header] = header === 'Authorization' ? `Bearer ${options.apiKey}` : options.apiKey;
  }
  if (json) headers['content-type'] = 'application/json';
  return headers;
}

/** The request sent and its body read whole, within one deadline; undici's failures as a NetworkError. */
async function exchange(
  options: ApiClientOptions,
  method: string,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
  signal: AbortSignal | undefined,
): Promise<{ response: Dispatcher.ResponseData; text: string; bytes: number }> {
  const timeout = options.timeoutMs ?? 30_000;
  // One deadline for the headers and the whole body: undici's body timeout restarts with
  // every chunk, so a body dripping a byte at a time would never end.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeout);
  try {
    const target = new URL(url);
    const response = await request.call(options.dispatcher ?? defaultDispatcher(), {
      origin: target.origin,
      path: target.pathname + target.search,
      method: method as Dispatcher.HttpMethod,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
    });
    return { response, ...(await readText(response, options.maxResponseBytes ?? MAX_RESPONSE_BYTES, url)) };
  } catch (error) {
    if (signal?.aborted || error instanceof ResponseTooLargeError) throw error;
    if (deadline.signal.aborted) throw new NetworkError(url, `waited ${timeout / 1000} s`, true);
    throw toNetworkError(error, url, timeout);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as JSON; a body that is not JSON is an error on a success, and kept as text on a failure. */
function parsedBody(text: string, status: number, url: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (status < 300) throw new UnexpectedResponseError(url, 'the body is not JSON');
    return text;
  }
}

/**
 * The body as text, read no further than `limit` bytes: an endless answer is cut off, not
 * held until memory runs out. A Content-Length over the limit is refused before reading.
 */
async function readText(response: Dispatcher.ResponseData, limit: number, url: string): Promise<{ text: string; bytes: number }> {
  const declared = Number(response.headers['content-length']);
  if (declared > limit) {
    response.body.destroy();
    throw new ResponseTooLargeError(url, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ResponseTooLargeError(url, limit);
    chunks.push(chunk);
  }
  // As undici's text(): UTF-8, a byte order mark dropped.
  return { text: new TextDecoder().decode(Buffer.concat(chunks, size)), bytes: size };
}

function redact(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'apikey' || lower === 'x-api-key') return '<redacted>';
  if (lower === 'authorization') return value.replace(/^(\w+\s+).*$/, '$1<redacted>');
  return value;
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
