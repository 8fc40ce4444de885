import { connect } from 'node:net';
import { checkTraffic } from './openapi-traffic.js';

/**
 * HTTP/1.1 over a bare socket, for requests no well-behaved client would send: any method
 * token, a request line as given (bad escapes, 64 KB paths), any bytes as the body, headers
 * in any case and number. One connection per request (`Connection: close`).
 */
export interface RawRequest {
  method: string;
  /** The request target exactly as it goes on the request line. */
  target: string;
  headers?: Array<[name: string, value: string]>;
  body?: Buffer | string;
  /** Send no Host header (every HTTP/1.1 request must have one). */
  omitHost?: boolean;
}

export interface RawAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json: unknown;
  ms: number;
}

/**
 * Sends one request and checks the exchange against the OpenAPI document (openapi-traffic.ts),
 * except answers Node's own parser gives before the service sees the request (not HTTP,
 * headers too large or too slow), which the document describes in words only.
 */
export async function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 10_000): Promise<RawAnswer> {
  const answer = await exchange(baseUrl, request, timeoutMs);
  const beforeTheService =
    answer.status === 408 || answer.status === 431 || (answer.status === 400 && (answer.json as { message?: unknown } | undefined)?.message === 'The request is not valid HTTP');
  if (!beforeTheService) {
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers ?? []) headers[name.toLowerCase()] = value;
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body.toString('utf8') : request.body;
    await checkTraffic({
      method: request.method,
      target: request.target,
      headers,
      ...(body === undefined ? {} : { body }),
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.json,
      responseText: answer.text,
    });
  }
  return answer;
}

function exchange(baseUrl: string, request: RawRequest, timeoutMs: number): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const head = [`${request.method} ${request.target} HTTP/1.1`, ...(request.omitHost ? [] : [`Host: ${url.host}`])];
  for (const [name, value] of request.headers ?? []) head.push(`${name}: ${value}`);
  if (body !== undefined) head.push(`Content-Length: ${body.length}`);
  head.push('Connection: close');
  const wire = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), body ?? Buffer.alloc(0)]);

  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect(Number(url.port), url.hostname);
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(Buffer.concat(chunks), request.method, performance.now() - started);
      if (answer) resolve(answer);
      else reject(error ?? new Error(`the connection closed without a complete answer (${Buffer.concat(chunks).length} bytes)`));
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.target.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(wire));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // The server may answer (413, 431) and close before the whole request was written.
    socket.on('error', (error) => finish(error));
  });
}

/** A complete response, or null when the bytes end before it does. */
function parseAnswer(raw: Buffer, method: string, ms: number): RawAnswer | null {
  const headerEnd = raw.indexOf('\r\n\r\n');
  if (headerEnd < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let bodyBytes = raw.subarray(headerEnd + 4);
  if (method === 'HEAD' || status === 204 || status === 304) bodyBytes = Buffer.alloc(0);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (bodyBytes.length < length) return null;
    bodyBytes = bodyBytes.subarray(0, length);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = dechunk(bodyBytes);
    if (!decoded) return null;
    bodyBytes = decoded;
  }
  const text = bodyBytes.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json, ms };
}

function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size) return null;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** docs/decisions.md (Errors): the one code each status may carry. */
export const DOCUMENTED_ERRORS: Readonly<Record<number, readonly string[]>> = {
  400: ['VALIDATION_FAILED'],
  401: ['API_KEY_MISSING', 'API_KEY_INVALID'],
  403: ['PLAN_LIMIT_EXCEEDED'],
  404: ['NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  // Node's parser refuses a request line and headers over its limit, or not sent in time, before
  // the app runs; the service answers it in its own shape (src/server/http/client-errors.ts).
  408: ['REQUEST_TIMEOUT'],
  431: ['PAYLOAD_TOO_LARGE'],
};

const STACK_TRACE = /\n\s+at |node_modules|file:\/\/|\.(?:js|ts):\d+/;

/**
 * What is wrong with an answer, or null when it is one of `success` or a documented error with
 * exactly the documented body. A string rather than an assertion, so a failing property says why.
 */
export function answerProblem(answer: RawAnswer, method: string, success: readonly number[]): string | null {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  const isHead = method === 'HEAD';
  if (success.includes(answer.status)) {
    if (answer.status === 204 || isHead) return answer.text === '' ? null : `a body on ${answer.status}/${method}`;
    if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return `success without JSON: ${answer.headers['content-type']}`;
    return answer.json === undefined ? `success body is not JSON: ${answer.text.slice(0, 200)}` : null;
  }
  const codes = DOCUMENTED_ERRORS[answer.status];
  if (!codes) return `undocumented status ${answer.status}: ${answer.text.slice(0, 300)}`;
  // Every answer, those of Node's parser included (with the client address's bucket).
  if (answer.headers['x-ratelimit-remaining'] === undefined) return `no rate-limit headers on ${answer.status}`;
  if (answer.status === 429 && !/^\d+$/.test(answer.headers['retry-after'] ?? '')) return '429 without Retry-After';
  if (isHead) return answer.text === '' ? null : 'a body on HEAD';
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return `error without JSON content type: ${answer.headers['content-type']}`;
  const body = answer.json as { error?: unknown; message?: unknown; issues?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `error body is not a JSON object: ${answer.text.slice(0, 300)}`;
  const keys = Object.keys(body).sort().join(',');
  const expectedKeys = answer.status === 400 ? 'error,issues,message' : 'error,message';
  if (keys !== expectedKeys) return `error body keys ${keys}, expected ${expectedKeys}: ${answer.text.slice(0, 300)}`;
  if (!codes.includes(body.error as string)) return `status ${answer.status} with code ${String(body.error)}`;
  if (typeof body.message !== 'string' || body.message === '') return 'error without a message';
  if (STACK_TRACE.test(answer.text)) return `a stack trace or file path in the body: ${answer.text.slice(0, 300)}`;
  if (answer.status === 400) {
    const issues = body.issues;
    if (!Array.isArray(issues) || issues.length === 0) return '400 without issues';
    for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
      if (typeof issue?.path !== 'string' || typeof issue.message !== 'string') return `malformed issue ${JSON.stringify(issue)}`;
    }
  }
  return null;
}
