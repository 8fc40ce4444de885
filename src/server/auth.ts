import type { FastifyRequest } from 'fastify';
import type { HoldAnswerBytes } from './in-flight.js';
import type { Caller } from './store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's owner, or null when no valid key came with the request. */
    caller: Caller | null;
    /** Whether a key was sent at all (to tell API_KEY_MISSING from API_KEY_INVALID). */
    keyPresented: boolean;
  }
}

/**
 * The key from one of the three accepted headers. Never from the query string: keys there
 * end up in proxy and access logs.
 */
export function presentedKey(headers: FastifyRequest['headers']): string | null {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const apiKey = first(headers['apikey']) ?? first(headers['x-api-key']);
  if (apiKey !== undefined && apiKey.trim() !== '') return apiKey.trim();
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
