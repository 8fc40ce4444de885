import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Fault } from '../../contract/faults.js';
import { whileServing, type Store } from '../store/index.js';

/** The error code of each injectable status, in the service's vocabulary where it has one. */
const CODE_OF_STATUS: Record<NonNullable<Fault['status']>, string> = {
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};
/** Seconds a faulted 429 or 503 asks the client to wait. */
const FAULT_RETRY_AFTER_SECONDS = 1;

/**
 * mulberry32: a small, fast generator whose whole sequence follows from one 32-bit seed, so a
 * CI run with `serve --seed N` faults the same requests again. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One use of a counted fault; a lock held by another process is waited for as a handler's is. */
const takeUse = (store: Store, id: string) => whileServing(() => store.faults.take(id));

function pathMatches(pattern: string, path: string, route: string | undefined): boolean {
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  const bare = pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern;
  return bare === path || bare === route;
}

/**
 * Step 10 of the gate, the last: the faults an administrator injected (`admin faults`,
 * `serve --fault`), which the request's one visit to the store brought (step 3). A faulted
 * request has been counted and authenticated, its body not yet read, and nothing changed.
 * Latency faults delay the request and let it go on (to the next matching fault, then the
 * body and the handler); a status or reset fault ends it. Oldest fault first. Without live
 * faults, nearly always, nothing is made: the gate goes on at once.
 */
export function faultStep(store: Store, random: () => number) {
  return applyFaults;

  /** True when a fault responded to the request (or dropped its connection). */
  async function applyFaults(faults: readonly Fault[], request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const path = request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
    const route = request.routeOptions.url;
    const accountId = request.caller?.accountId;
    for (const fault of faults) {
      if (fault.method !== '*' && fault.method !== method) continue;
      if (!pathMatches(fault.path, path, route)) continue;
      if (fault.accountId !== null && fault.accountId !== accountId) continue;
      if (fault.rate < 1 && !(random() < fault.rate)) continue;
      if (fault.remaining !== null && !(await takeUse(store, fault.id))) continue;
      if (fault.kind === 'latency') {
        await sleep(fault.latencyMs ?? 0);
        continue;
      }
      if (fault.kind === 'reset-connection') {
        reply.hijack();
        request.raw.socket.destroy();
        return true;
      }
      const status = fault.status ?? 500;
      reply.header('x-reportctl-fault', fault.id);
      if (status === 429 || status === 503) reply.header('retry-after', String(FAULT_RETRY_AFTER_SECONDS));
      if (status === 429) {
        // As a real 429 says: nothing left in this bucket until Retry-After has passed.
        const seconds = String(FAULT_RETRY_AFTER_SECONDS);
        reply.header('x-ratelimit-remaining', '0');
        reply.header('x-ratelimit-reset', seconds);
        const ratelimit = reply.getHeader('ratelimit');
        if (typeof ratelimit === 'string') reply.header('ratelimit', ratelimit.replace(/;r=\d+/, ';r=0').replace(/;t=\d+/, `;t=${seconds}`));
      }
      reply.code(status).send({ error: CODE_OF_STATUS[status], message: `Injected fault ${fault.id}: ${status} for ${fault.method} ${fault.path}` });
      return true;
    }
    return false;
  }
}
