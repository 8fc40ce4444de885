import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from './errors.js';

type ClientErrorBody = ReturnType<ApiError['body']>;
type ClientError = Error & { code?: string };

/** What Node's parser errors mean in the service's vocabulary. */
function clientErrorAnswer(error: ClientError): { status: number; body: ClientErrorBody } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, body: { error: 'PAYLOAD_TOO_LARGE', message: 'The request line and headers are larger than the server accepts' } };
  }
  const message = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'The request did not arrive in time' : 'The request is not valid HTTP';
  return {
    status: error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400,
    body: { error: 'VALIDATION_FAILED', message, issues: [{ path: '', message }] },
  };
}

/** As Node's own answer: only when no response has started on the socket; then close it. */
function answerOnSocket(error: ClientError, socket: Socket, answer: { status: number; body: ClientErrorBody }): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    const text = JSON.stringify(answer.body);
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Requests Node's parser refuses before any of the app runs (headers too large, not HTTP, too
 * slow) are answered on the raw socket in the service's shape too, and logged when asked.
 */
export function clientErrorHandler(logAccess: ((line: string) => void) | undefined, now: () => number) {
  return (error: ClientError, socket: Socket): void => {
    const answer = clientErrorAnswer(error);
    if (logAccess && !socket.destroyed && error.code !== 'ECONNRESET') {
      logAccess(`${new Date(now()).toISOString()} - (${error.code ?? 'client error'}) ${answer.status}`);
    }
    answerOnSocket(error, socket, answer);
  };
}
