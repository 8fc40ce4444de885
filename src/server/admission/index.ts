import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Fault } from '../../contract/faults.js';
import { slowReaderWatch } from '../http/slow-readers.js';
import { throwingHook } from '../http/throwing-hook.js';
import type { Limits } from '../limits.js';
import type { Endpoint } from '../routes/endpoint.js';
import type { Store } from '../store/index.js';
import { requireKey } from './authentication.js';
import { callerStep, type ConnectionsSeen } from './caller.js';
import { Closing } from './closing.js';
import { deprecationMarks } from './deprecation.js';
import { faultStep } from './faults.js';
import { hostCheck } from './host.js';
import { inFlightStep } from './in-flight.js';
import { rateLimits } from './rate-limit.js';
import { router } from './route.js';
import { unroutedRefusal } from './unrouted.js';

export interface GateOptions {
  store: Store;
  endpoints: readonly Endpoint[];
  limits: Limits;
  /** Host names requests may be addressed to besides loopback ones (`serve --host`, `--allow-host`). */
  hostNames: readonly string[];
  /** The random source of faults with a rate below 1. */
  faultRandom: () => number;
  /** The connection slots, told of each request's connection and whether a valid key came on it. */
  connections: ConnectionsSeen;
  now: () => number;
}

export interface Gate {
  /** Every step but the faults, on a request Fastify could not route (a malformed URL): throws the refusal. */
  admit(request: FastifyRequest, reply: FastifyReply): void;
  /** The gate as the app's one onRequest hook, and what it needs of the app (request fields, closing, the response's side). */
  register(app: FastifyInstance): void;
  /** The rate-limit headers of a response that spends nothing (see RateLimits.unspentHeaders). */
  unspentRateHeaders(address: string | undefined, method?: string): Record<string, string>;
  /** False once close() began: the health check responds 503. */
  serving(): boolean;
}

/**
 * The request gate: every request goes through its steps, in this order, in one onRequest
 * hook (each Fastify hook is a step of its runner for every request). Each step is a module
 * of this folder with its own state, built here from the one Limits; src/server/README.md
 * walks them. The order is what the service promises: the Host is checked before anything
 * is spent, and the rate limit comes before the refusals, so every response of the API,
 * errors included, carries its bucket's headers.
 */
export function gate(options: GateOptions): Gate {
  const { store, endpoints, limits } = options;
  const checkHost = hostCheck(options.hostNames);
  const route = router(endpoints);
  const identifyCaller = callerStep(store, options.connections);
  const markDeprecated = deprecationMarks(endpoints);
  const rates = rateLimits(limits, options.now);
  const closing = new Closing();
  const refuseUnrouted = unroutedRefusal(endpoints);
  const enterInFlight = inFlightStep(limits);
  const applyFaults = faultStep(store, options.faultRandom);

  /** Steps 1 to 9; returns the live faults for step 10. */
  function admit(request: FastifyRequest, reply: FastifyReply): readonly Fault[] {
    try {
      checkHost(request);
    } catch (refusal) {
      // Refused before it spends a rate limit; its response still says where the address's bucket stands.
      reply.headers(rates.unspentHeaders(request.ip, request.method));
      throw refusal;
    }
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const endpoint = route(request, method, path);
    const faults = identifyCaller(request, endpoint !== null);
    if (endpoint === null) return faults;
    markDeprecated(reply, path);
    rates.take(request, reply, endpoint?.kind ?? (method === 'GET' ? 'read' : 'write'));
    closing.refuseWhileClosing();
    refuseUnrouted(request.method, path, endpoint);
    requireKey(request, endpoint);
    if (request.caller) enterInFlight(request, reply, request.caller.accountId);
    return faults;
  }

  function register(app: FastifyInstance): void {
    app.decorateRequest('caller', null);
    app.decorateRequest('keyPresented', false);
    app.decorateRequest('reserveResponseBytes', null);
    app.addHook(
      'onRequest',
      throwingHook((request, reply) => {
        const faults = admit(request, reply);
        return faults.length === 0 ? undefined : applyFaults(faults, request, reply);
      }),
    );
    closing.register(app);
    const watchSlowReader = slowReaderWatch(limits);
    app.addHook('onSend', (_request, reply, payload, done) => {
      closing.endConnectionWhileClosing(reply);
      done(null, payload);
      // The response is now with its socket, unless a later hook waits. After it, Node sets
      // the keep-alive timeout.
      watchSlowReader(reply.raw);
    });
  }

  return {
    admit: (request, reply) => void admit(request, reply),
    register,
    unspentRateHeaders: rates.unspentHeaders,
    serving: () => closing.serving(),
  };
}
