import type { FastifyInstance } from 'fastify';
import { bodyRuleMessages, MAX_JSON_DEPTH, refusedValues } from '../../contract/template-rules.js';
import type { IncomingMessage } from 'node:http';
import { decodeUtf8, NotUtf8Error } from '../../encoding/utf8.js';
import { validationFailed } from '../errors.js';

/**
 * The one way bodies are read: JSON only, UTF-8 only, bounded nesting, no poisoned prototypes,
 * and no value that JSON.parse accepts but that would come back changed (refusedValues, contract/template-rules.ts).
 * A body refused without being read is read before the response goes (drainUnread).
 */
export function registerJsonBody(app: FastifyInstance): void {
  // Only JSON bodies: text/plain would otherwise be accepted as a string.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (a DELETE sent with Content-Type: application/json) is no body at all;
  // the routes that need one say so at path "". Fastify's parser keeps its poisoning checks.
  // Bytes that are not UTF-8 are refused rather than stored as U+FFFD, and so is nesting
  // deep enough to overflow the stack when the document is serialised again.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  // Callback style: every response passes here, and most have nothing to wait for.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const draining = drainUnread(request.raw);
    if (draining === undefined) done(null, payload);
    else void draining.then(() => done(null, payload));
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeUtf8(body as Buffer);
    } catch (error) {
      const where = error instanceof NotUtf8Error ? `: ${error.reason}` : '';
      return done(validationFailed([{ path: '', message: `${bodyRuleMessages.notUtf8}${where}` }]), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(validationFailed([{ path: '', message: bodyRuleMessages.tooDeep }]), undefined);
    }
    jsonParser(request, text, (error, value) => {
      // Fastify reports a poisoned prototype as invalid JSON; it is valid JSON with a refused key.
      if (error && isJson(text)) {
        return done(validationFailed([{ path: '', message: bodyRuleMessages.forbiddenKey }]), undefined);
      }
      if (error) return done(error, undefined);
      const issues = refusedValues(value);
      done(issues.length > 0 ? validationFailed(issues) : null, issues.length > 0 ? undefined : value);
    });
  });
}

/** The most of an unread body that is read before a response, and how long that may take. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
const DRAIN_MAX_MS = 2_000;

/**
 * A body the service refuses without reading (a 415 for its media type, a 413 for its length,
 * a 401 before it) is read to its end first, within bounds. Refused at once, the connection
 * closes while the client is still sending, and the reset that follows can take the response
 * with it before the client reads it.
 */
export function drainUnread(raw: IncomingMessage): Promise<void> | undefined {
  if (raw.complete || raw.readableEnded || raw.destroyed) return undefined;
  // No Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body. A GET served
  // at once is served before Node's parser marks it complete, and must not wait for that.
  const { headers } = raw;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) return undefined;
  if (Number(headers['content-length']) > DRAIN_MAX_BYTES) return undefined;
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', count).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('data', count).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether JSON text opens more than `limit` arrays/objects inside one another (strings skipped). */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

