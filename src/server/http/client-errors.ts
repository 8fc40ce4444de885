import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../errors.js';

type ClientErrorBody = ReturnType<ApiError['body']>;
type ClientError = Error & { code?: string };

/** What Node's parser errors mean in the service's vocabulary. */
function clientErrorResponse(error: ClientError): { status: number; body: ClientErrorBody } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, body: { error: 'PAYLOAD_TOO_LARGE', message: 'The request line and headers are larger than the server accepts' } };
  }
  // Nothing was wrong with what arrived, only that not all of it did: send it again.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, body: { error: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time; send it again' } };
  }
  const message = 'The request is not valid HTTP';
  return { status: 400, body: { error: 'VALIDATION_FAILED', message, issues: [{ path: '', message }] } };
}

/** The rate-limit headers of a response that spends nothing, for a client address (see the gate's rate-limit step). */
export type UnspentRateHeaders = (address: string | undefined) => Record<string, string>;

/** A refusal written on a raw socket, before or instead of Node's HTTP handling. */
export function rawResponse(status: number, body: unknown, headers: Record<string, string>): string {
  const text = JSON.stringify(body);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}Connection: close\r\n\r\n${text}`;
}

/**
 * How long a refused connection is kept open, unread bytes discarded, after its response:
 * closed at once with a body still arriving, the kernel resets it, and the client, still
 * writing, never reads the response.
 */
const LINGER_MS = 1_000;

/** Sockets refused and closing: the parser reports its error again for each later chunk. */
const lingering = new WeakSet<Socket>();

/** As Node's own response: only when no response has started on the socket; then close it. */
function respondOnSocket(
  error: ClientError,
  socket: Socket,
  response: { status: number; body: ClientErrorBody },
  rateHeaders: UnspentRateHeaders,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return;
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || started?.headersSent) {
    socket.destroy(error);
    return;
  }
  const text = rawResponse(response.status, response.body, rateHeaders(socket.remoteAddress));
  // A client too slow to send its request gets no more time to send the rest.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.write(text);
    socket.destroy(error);
    return;
  }
  lingerThenClose(socket, text);
}

/** Ends the socket with `text`, reading and dropping what still arrives for a moment (see LINGER_MS). */
export function lingerThenClose(socket: Socket, text: string): void {
  lingering.add(socket);
  socket.end(text);
  socket.setTimeout(0);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('end', () => socket.destroy());
}

/**
 * Requests Node's parser refuses before any of the app runs (headers too large, not HTTP, too
 * slow) get a response on the raw socket in the service's shape too, with the client address's
 * rate-limit headers, and logged when asked.
 */
export function clientErrorHandler(logAccess: ((line: string) => void) | undefined, now: () => number, rateHeaders: UnspentRateHeaders) {
  return (error: ClientError, socket: Socket): void => {
    const response = clientErrorResponse(error);
    if (logAccess && !socket.destroyed && error.code !== 'ECONNRESET') {
      logAccess(`${new Date(now()).toISOString()} - (${error.code ?? 'client error'}) ${response.status}`);
    }
    respondOnSocket(error, socket, response, rateHeaders);
  };
}
