import { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Fault } from '../../contract/faults.js';
import { hashApiKey, type Caller, type Store } from '../store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's owner, or null when no valid key came with the request. */
    caller: Caller | null;
    /** Whether a key was sent at all (to tell API_KEY_MISSING from API_KEY_INVALID). */
    keyPresented: boolean;
  }
}

/** Told of each request's connection, and whether a valid key came on it (see http/connection-cap.ts). */
export interface ConnectionsSeen {
  requestSeen(connection: object, withValidKey: boolean): void;
}

/**
 * Step 3 of the gate: who is calling. The key presented, if any, is looked up in the
 * request's one visit to the store (Store.atRequestStart), which also brings the live faults
 * for the last step. A valid key keeps its connection's slot. Nothing is refused here: the
 * caller's account picks the rate limit's bucket (step 5) before a missing or unknown key is
 * refused (step 8). A request outside the API (`api` false) presents no key.
 */
export function callerStep(store: Store, connections: ConnectionsSeen): (request: FastifyRequest, api: boolean) => readonly Fault[] {
  return (request, api) => {
    const { socket } = request.raw;
    const key = api ? presentedKey(request.headers) : null;
    request.keyPresented = key !== null;
    const start = store.atRequestStart(socket instanceof Socket, key === null ? null : keyHashFor(socket, key));
    request.caller = start.caller;
    connections.requestSeen(socket, start.caller !== null);
    return start.faults;
  };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The key from one of the three accepted headers. Never from the query string: keys there
 * end up in proxy and access logs.
 */
function presentedKey(headers: FastifyRequest['headers']): string | null {
  const apiKey = (first(headers['apikey']) ?? first(headers['x-api-key']))?.trim();
  if (apiKey) return apiKey;
  const authorization = first(headers.authorization);
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return bearer ? bearer[1]! : null;
}

/**
 * The key each connection presented last, with its hash: a client sends the same key with
 * every request of a connection, and hashing it anew each time cost throughput on cached
 * pages (docs/performance.md, "What was cut"). Kept with its connection only (no table of
 * keys shared across connections), and gone with it.
 */
const lastKeys = new WeakMap<object, { key: string; hash: string }>();

/** `hashApiKey(key)`, remembered for the connection that sent it. */
function keyHashFor(connection: object, key: string): string {
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
