import type { FastifyRequest } from 'fastify';
import type { HoldAnswerBytes } from './in-flight.js';
import { hashApiKey, type Caller } from './store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's owner, or null when no valid key came with the request. */
    caller: Caller | null;
    /** Whether a key was sent at all (to tell API_KEY_MISSING from API_KEY_INVALID). */
    keyPresented: boolean;
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The key from one of the three accepted headers. Never from the query string: keys there
 * end up in proxy and access logs.
 */
export function presentedKey(headers: FastifyRequest['headers']): string | null {
  const apiKey = (first(headers['apikey']) ?? first(headers['x-api-key']))?.trim();
  if (apiKey) return apiKey;
  const authorization = first(headers.authorization);
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return bearer ? bearer[1]! : null;
}

/** The caller of a route that requires a key; the onRequest hook has already refused the rest. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without authentication');
  return request.caller;
}

/** The answer bytes holder of a route that requires a key (see in-flight.ts). */
export function holderOf(request: FastifyRequest): HoldAnswerBytes {
  if (!request.holdAnswerBytes) throw new Error('holderOf used on a route without authentication');
  return request.holdAnswerBytes;
}

/**
 * The key each connection presented last, with its hash: a client sends the same key with
 * every request of a connection, and hashing it anew each time is a measurable part of
 * answering a cached page. Kept with its connection only (no table of keys shared across
 * connections), and gone with it.
 */
const lastKeys = new WeakMap<object, { key: string; hash: string }>();

/** `hashApiKey(key)`, remembered for the connection that sent it. */
export function keyHashFor(connection: object, key: string): string {
  const last = lastKeys.get(connection);
  if (last === undefined) {
    const hash = hashApiKey(key);
    lastKeys.set(connection, { key, hash });
    return hash;
  }
  if (!sameText(last.key, key)) {
    // A connection that alternates keys (a proxy's, say) keeps one entry, updated.
    last.key = key;
    last.hash = hashApiKey(key);
  }
  return last.hash;
}

/** Equal strings, compared in a time that does not depend on where they first differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
