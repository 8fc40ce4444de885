import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keyHashFor, presentedKey } from './auth.js';
import { ApiError } from './errors.js';
import {
  ANSWER_DEADLINE_MS,
  ANSWER_STALL_MS,
  AnswerMemory,
  InFlightLimiter,
  MAX_ACCOUNT_ANSWER_BYTES,
  MAX_ANSWER_BYTES,
} from './in-flight.js';
import { ECHO_MAX, shown } from './http/log-redaction.js';
import { RollingWindowLimiter } from './rate-limit.js';
import { isDashboardRequest } from './routes/dashboard.js';
import { isHealthRequest } from './routes/health.js';
import { EndpointIndex } from './routes/endpoint-index.js';
import type { Endpoint, RequestKind } from './routes/endpoint.js';
import type { Store } from './store/index.js';

export interface AdmissionOptions {
  store: Store;
  endpoints: readonly Endpoint[];
  readsPerMinute: number;
  writesPerMinute: number;
  /** The rolling rate-limit window (default 60 s; `serve --rate-window-seconds`). */
  rateWindowMs?: number | undefined;
  /** Requests of one account answered at once; more are answered 429 at once. Default: no cap. */
  maxInFlightPerAccount?: number | undefined;
  /** Bytes of pages all answers in flight may hold (default 192 MiB); past it, 503. */
  maxAnswerBytes?: number | undefined;
  /** What one account's answers may hold of it (default a quarter); past it, 503. */
  maxAccountAnswerBytes?: number | undefined;
  /** An answer its client takes nothing of for this long is dropped (default 10 s). */
  answerStallMs?: number | undefined;
  /** An answer not taken whole this long after it was handed to its connection is dropped (default 30 s). */
  answerDeadlineMs?: number | undefined;
  now: () => number;
}

export interface Admission {
  /** Deprecation, key, rate limit, route and method: what every request goes through first. Throws the refusal. */
  admit(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * What admission needs of the app: its request fields, and the answer's side (closing, the
   * stall limit). The app runs `admit` in its onRequest hook.
   */
  register(app: FastifyInstance): void;
  /**
   * The rate-limit headers of an answer that spends nothing (refused before admission, or by
   * Node's parser): the client address's bucket as it stands, reads unless `method` is a
   * write's. Nothing is taken from it.
   */
  unspentRateHeaders(address: string | undefined, method?: string): Record<string, string>;
  /** False once close() began: health checks answer 503. */
  serving(): boolean;
}

const DEFAULT_WINDOW_MS = 60_000;

interface RatePolicy {
  name: 'reads' | 'writes';
  limit: number;
  limitText: string;
  bucketSuffix: string;
  /** The RateLimit-Policy header: the same on every answer of the kind. */
  header: string;
  /** The RateLimit header up to the remaining count. */
  stateStart: string;
  /** An account's bucket name, made once per account rather than once per request. */
  accountBuckets: Map<string, string>;
}

/** Bucket names kept per kind; past this many accounts the list starts over. */
const MAX_BUCKET_NAMES = 10_000;

function ratePolicy(kind: RequestKind, name: RatePolicy['name'], limit: number, windowMs: number): RatePolicy {
  return {
    name,
    limit,
    limitText: String(limit),
    bucketSuffix: `:${kind}`,
    header: `"${name}";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
    stateStart: `"${name}";r=`,
    accountBuckets: new Map(),
  };
}

function accountBucket(policy: RatePolicy, accountId: string): string {
  let bucket = policy.accountBuckets.get(accountId);
  if (bucket === undefined) {
    if (policy.accountBuckets.size >= MAX_BUCKET_NAMES) policy.accountBuckets.clear();
    bucket = `account:${accountId}${policy.bucketSuffix}`;
    policy.accountBuckets.set(accountId, bucket);
  }
  return bucket;
}

/** A response's 'timeout' listener (`this` is the response): one function for every answer. */
function dropStalledAnswer(this: ServerResponse): void {
  this.destroy();
}

/** An answer past its deadline goes with its connection. */
const dropLateAnswer = (answer: ServerResponse) => answer.destroy();

export function admission(options: AdmissionOptions): Admission {
  const { store, endpoints } = options;
  const index = new EndpointIndex(endpoints);
  // By method, then route: no key to build per request.
  const byRoute = new Map<string, Map<string, Endpoint>>();
  for (const endpoint of endpoints) {
    const routes = byRoute.get(endpoint.method) ?? new Map<string, Endpoint>();
    byRoute.set(endpoint.method, routes.set(endpoint.url, endpoint));
  }
  const deprecatedByPath = new Map(
    endpoints.flatMap((endpoint) => (endpoint.deprecated ? [[endpoint.url, endpoint.deprecated] as const] : [])),
  );
  const windowMs = options.rateWindowMs ?? DEFAULT_WINDOW_MS;
  const limiter = new RollingWindowLimiter(windowMs, options.now);
  // Per kind, what does not change from request to request: the bucket's suffix and the policy header.
  const policies: Record<RequestKind, RatePolicy> = {
    read: ratePolicy('read', 'reads', options.readsPerMinute, windowMs),
    write: ratePolicy('write', 'writes', options.writesPerMinute, windowMs),
  };
  const inFlight = options.maxInFlightPerAccount === undefined ? null : new InFlightLimiter(options.maxInFlightPerAccount);
  const maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const answerMemory = new AnswerMemory(maxAnswerBytes, options.maxAccountAnswerBytes ?? Math.min(MAX_ACCOUNT_ANSWER_BYTES, maxAnswerBytes));
  const answerStallMs = options.answerStallMs ?? ANSWER_STALL_MS;
  const answerDeadlineMs = options.answerDeadlineMs ?? ANSWER_DEADLINE_MS;
  // Set once close() begins: new requests are refused, those in flight finish.
  let closing = false;

  /**
   * Route, rate limit, authenticate, in-flight, in that order: the rate limit comes before the
   * refusals, so every answer (errors included) carries the bucket's headers.
   */
  function admit(request: FastifyRequest, reply: FastifyReply): void {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const endpoint = route(request, method, path);
    if (endpoint === null) return;
    store.atRequestStart(request.raw.socket instanceof Socket);
    markDeprecated(reply, path);
    identifyCaller(request);
    rateLimit(request, reply, policies[endpoint?.kind ?? (method === 'GET' ? 'read' : 'write')]);
    refuseUnrouted(request.method, path, endpoint);
    authenticate(request, endpoint);
    if (request.caller) enterInFlight(request, reply, request.caller.accountId);
  }

  /**
   * The endpoint a request is for; undefined for none (a 404 or 405 to come), null for a
   * request outside the API (the dashboard, health), which admission lets through untouched.
   */
  function route(request: FastifyRequest, method: string, path: string): Endpoint | undefined | null {
    // A path written exactly as an endpoint's is routed to it (a list, a create). Others (an
    // id, the dashboard) ask Fastify, whose routeOptions makes a new object on every call.
    const endpoint = byRoute.get(method)?.get(path);
    if (endpoint !== undefined) return endpoint;
    const routed = request.routeOptions;
    // Neither is part of the API: no key, no rate limit.
    if (isDashboardRequest(routed.config, request.url) || isHealthRequest(routed.config)) return null;
    return routed.url === undefined ? undefined : byRoute.get(method)?.get(routed.url);
  }

  /** By path, so even a 405 on the old route says it is deprecated. */
  function markDeprecated(reply: FastifyReply, path: string): void {
    if (deprecatedByPath.size === 0) return;
    const deprecated = deprecatedByPath.get(path.endsWith('/') ? path.replace(/\/+$/, '') : path);
    if (deprecated) {
      reply.header('deprecation', deprecated.since);
      reply.header('link', `<${deprecated.successor}>; rel="successor-version"`);
    }
  }

  /** The account of the key presented, if any: the rate limit's bucket. Refused later, by authenticate. */
  function identifyCaller(request: FastifyRequest): void {
    const key = presentedKey(request.headers);
    request.keyPresented = key !== null;
    request.caller = key === null ? null : store.keys.authenticateHash(keyHashFor(request.raw.socket, key));
  }

  /** Takes one from the caller's bucket (or the address's) and says so in the headers; refuses past the limit, or while closing. */
  function rateLimit(request: FastifyRequest, reply: FastifyReply, policy: RatePolicy): void {
    const decision = limiter.take(
      request.caller ? accountBucket(policy, request.caller.accountId) : `address:${request.ip}${policy.bucketSuffix}`,
      policy.limit,
    );
    reply.header('x-ratelimit-limit', policy.limitText);
    // Each number written out once: under a high limit every count is new text to make.
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    reply.header('x-ratelimit-remaining', remaining);
    reply.header('x-ratelimit-reset', reset);
    reply.header('ratelimit-policy', policy.header);
    reply.header('ratelimit', policy.stateStart + remaining + ';t=' + reset);
    if (closing) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The service is shutting down; try again later', undefined, { 'retry-after': '1' });
    }
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many ${policy.name}; retry in ${decision.retryAfterSeconds} s`, undefined, {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
  }

  /**
   * A known path with the wrong method is a 405; an unknown path a 404. A request routed to a
   * path without parameters, written as that path, is neither (checked first: it is every list
   * request). A path with an id may name a static path of another method (GET
   * .../validate-formula). Messages echo the path; a key pasted into it must not come back.
   */
  function refuseUnrouted(method: string, path: string, endpoint: Endpoint | undefined): void {
    if (endpoint !== undefined && (path === endpoint.url || path === `${endpoint.url}/`)) return;
    const allowed = index.allowedMethods(path);
    if (!allowed) throw new ApiError('NOT_FOUND', `No route ${method} ${shown(path, ECHO_MAX)}`);
    if (!allowed.has(method)) {
      throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${shown(path, ECHO_MAX)}`, undefined, {
        allow: [...allowed].join(', '),
      });
    }
  }

  /** Every endpoint but the few marked `auth: false` needs a valid key. */
  function authenticate(request: FastifyRequest, endpoint: Endpoint | undefined): void {
    if (endpoint?.auth === false || request.caller) return;
    throw request.keyPresented
      ? new ApiError('API_KEY_INVALID', 'The API key is not valid (unknown or revoked)')
      : new ApiError('API_KEY_MISSING', 'Send an API key in the apiKey header (or X-API-Key, or Authorization: Bearer)');
  }

  /** The account's share of answers at once (when capped) and of the answers' memory. */
  function enterInFlight(request: FastifyRequest, reply: FastifyReply, accountId: string): void {
    if (inFlight !== null && !inFlight.enter(accountId, reply.raw)) {
      throw new ApiError('RATE_LIMITED', `Too many requests in flight for this account (at most ${inFlight.limit}); retry in 1 s`, undefined, {
        'retry-after': '1',
      });
    }
    request.holdAnswerBytes = answerMemory.holder(accountId, reply.raw);
  }

  function unspentRateHeaders(address: string | undefined, method = 'GET'): Record<string, string> {
    const policy = policies[method === 'GET' || method === 'HEAD' ? 'read' : 'write'];
    const decision = limiter.peek(`address:${address}${policy.bucketSuffix}`, policy.limit);
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    return {
      'x-ratelimit-limit': policy.limitText,
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': reset,
      'ratelimit-policy': policy.header,
      ratelimit: policy.stateStart + remaining + ';t=' + reset,
    };
  }

  function register(app: FastifyInstance): void {
    app.decorateRequest('caller', null);
    app.decorateRequest('keyPresented', false);
    app.decorateRequest('holdAnswerBytes', null);
    // Once closing, a response ends its connection: a keep-alive socket that turns idle only
    // after close() began (a slow upload finishing, say) would otherwise hold the process open
    // for the whole keep-alive timeout.
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
      // The answer is now with its socket, unless a later hook waits. What is still queued must
      // make progress (a write taken, a read) within the limit, or it is destroyed; an answer
      // the kernel took whole needs no watch, and arming one per answer would cost a fifth of
      // the throughput of cached pages. After the answer, Node sets the keep-alive timeout.
      // An answer still queued also has a deadline, however steadily it is read: a client that
      // reads just fast enough to dodge the stall limit holds its bytes no longer.
      const answer = reply.raw;
      if (!answer.writableEnded || answer.writableLength > 0) {
        answer.setTimeout(answerStallMs, dropStalledAnswer);
        const deadline = setTimeout(dropLateAnswer, answerDeadlineMs, answer);
        answer.once('close', () => clearTimeout(deadline));
      }
    });
  }

  return { admit, register, unspentRateHeaders, serving: () => !closing };
}
