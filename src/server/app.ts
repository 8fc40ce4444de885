import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, validationFailed } from './errors.js';
import { presentedKey } from './auth.js';
import { ECHO_MAX, LOGGED_MAX, shown } from './log-redaction.js';
import { InFlightLimiter, MAX_IN_FLIGHT_PER_ACCOUNT } from './in-flight.js';
import { noSchemaCompilers } from './no-schema-compilers.js';
import { registerJsonBody } from './json-body.js';
import { faultInjection } from './faults.js';
import { RollingWindowLimiter } from './rate-limit.js';
import { serviceEndpoints } from './routes/service.js';
import { EndpointIndex, type RequestKind } from './routes/table.js';
import { BUSY_TIMEOUT_MS, isBusyError, retryWhileBusy, type Store } from './store/index.js';

export interface AppOptions {
  store: Store;
  readsPerMinute: number;
  writesPerMinute: number;
  /** One line per request (method, path, status, ms). Never given the key. */
  accessLog?: (line: string) => void;
  /** Where 500s are reported; the client only ever sees a generic message. */
  errorLog?: (error: unknown) => void;
  now?: () => number;
  /** The whole request must arrive within this (default 30 s)... */
  requestTimeoutMs?: number;
  /** ...and its request line and headers within this (default 10 s). Tests shorten both. */
  headersTimeoutMs?: number;
  /** The rolling rate-limit window (default 60 s; `serve --rate-window-seconds`). */
  rateWindowMs?: number;
  /** Requests of one account answered at once (default 4); more are answered 429 at once. */
  maxInFlightPerAccount?: number;
  /** The random source of faults with a rate below 1 (`serve --seed`); default Math.random. */
  faultRandom?: () => number;
}

const MIB = 1024 * 1024;
const DEFAULT_WINDOW_MS = 60_000;

export function buildApp(options: AppOptions): FastifyInstance {
  const now = options.now ?? Date.now;
  const endpoints = serviceEndpoints(options.store);
  const index = new EndpointIndex(endpoints);
  const byRoute = new Map(endpoints.map((endpoint) => [`${endpoint.method} ${endpoint.url}`, endpoint]));
  const deprecatedByPath = new Map(
    endpoints.flatMap((endpoint) => (endpoint.deprecated ? [[endpoint.url, endpoint.deprecated] as const] : [])),
  );
  const windowMs = options.rateWindowMs ?? DEFAULT_WINDOW_MS;
  const limiter = new RollingWindowLimiter(windowMs, now);
  const limits: Record<RequestKind, number> = { read: options.readsPerMinute, write: options.writesPerMinute };
  const inFlight = new InFlightLimiter(options.maxInFlightPerAccount ?? MAX_IN_FLIGHT_PER_ACCOUNT);
  const logAccess = options.accessLog;
  // Set once close() begins: new requests are refused, those in flight finish.
  let closing = false;

  // Slow clients cannot hold a connection: whole request in 30 s, headers in 10 s.
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const app = Fastify({
    logger: false,
    schemaController: noSchemaCompilers,
    bodyLimit: MIB,
    requestTimeout,
    // Node enforces both deadlines only when it checks its connections, every 30 s by
    // default: a half-sent header could hold a socket for 40 s instead of 10.
    // A request without Host is refused in admit(), in the service's shape and logged, not with
    // Node's bare 400.
    http: {
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
      requireHostHeader: false,
    },
    connectionTimeout: 60_000,
    // Answered by admit() instead, in the service's error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // A malformed percent-escape or an over-long id never reaches a route: answered here in
    // the service's shape (Fastify's own body has no `error` code), after the usual checks.
    frameworkErrors: (error, request, reply) => {
      const started = performance.now();
      if (logAccess) reply.raw.once('finish', () => logAccess(accessLine(request.method, request.url, reply.statusCode, performance.now() - started)));
      admit(request, reply)
        .then(() => {
          // An id longer than any id can be names nothing; anything else here would be a bug (500).
          if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') throw new ApiError('NOT_FOUND', 'Resource not found');
          if (error.code === 'FST_ERR_BAD_URL') throw validationFailed([{ path: '', message: 'The URL has a malformed percent-escape' }], 'URL');
          throw error;
        })
        .catch((caught: unknown) => answerError(caught, reply));
    },
    // Requests Node's parser refuses before any of this app runs (headers too large, not HTTP,
    // too slow) are answered in the service's shape too.
    clientErrorHandler: (error, socket) => {
      const answer = clientErrorAnswer(error);
      if (logAccess && !socket.destroyed && error.code !== 'ECONNRESET') {
        logAccess(`${new Date(now()).toISOString()} - (${error.code ?? 'client error'}) ${answer.status}`);
      }
      answerClientError(error, socket, answer);
    },
  });
  registerJsonBody(app);

  app.decorateRequest('caller', null);
  app.decorateRequest('keyPresented', false);

  /** Deprecation, key, rate limit, route and method: what every request goes through first. */
  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const routeUrl = request.routeOptions.url;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const endpoint = routeUrl ? byRoute.get(`${method} ${routeUrl}`) : undefined;
    const path = request.url.split('?')[0]!;
    // By path, so even a 405 on the old route says it is deprecated.
    const deprecated = deprecatedByPath.get(path.replace(/\/+$/, ''));
    if (deprecated) {
      reply.header('deprecation', deprecated.since);
      reply.header('link', `<${deprecated.successor}>; rel="successor-version"`);
    }

    const key = presentedKey(request.headers);
    request.keyPresented = key !== null;
    request.caller = key === null ? null : options.store.keys.authenticate(key);

    // Rate limit first, so every answer (errors included) carries the bucket's headers.
    const kind: RequestKind = endpoint?.kind ?? (method === 'GET' ? 'read' : 'write');
    const bucket = request.caller ? `account:${request.caller.accountId}` : `address:${request.ip}`;
    const decision = limiter.take(`${bucket}:${kind}`, limits[kind]);
    const policy = kind === 'read' ? 'reads' : 'writes';
    reply.headers({
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(decision.resetSeconds),
      'ratelimit-policy': `"${policy}";q=${decision.limit};w=${Math.ceil(windowMs / 1000)}`,
      ratelimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
    });
    if (closing) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The service is shutting down; try again later', undefined, { 'retry-after': '1' });
    }
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many ${policy}; retry in ${decision.retryAfterSeconds} s`, undefined, {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
    // What Node refuses itself when asked to (requireHostHeader), as HTTP/1.1 requires.
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw validationFailed([{ path: '', message: 'An HTTP/1.1 request must have a Host header' }], 'Request');
    }

    // A known path with the wrong method is a 405; an unknown path a 404. A request routed to
    // a path without parameters, written as that path, is neither (checked first: it is every
    // list request). A path with an id may name a static path of another method (GET
    // .../validate-formula). Messages echo the path; a key pasted into it must not come back.
    const routedAsWritten = endpoint !== undefined && (path === endpoint.url || path === `${endpoint.url}/`);
    if (!routedAsWritten) {
      const allowed = index.allowedMethods(path);
      if (!allowed) throw new ApiError('NOT_FOUND', `No route ${request.method} ${shown(path, ECHO_MAX)}`);
      if (!allowed.has(request.method)) {
        throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${shown(path, ECHO_MAX)}`, undefined, {
          allow: [...allowed].join(', '),
        });
      }
    }
    if (endpoint?.auth !== false && !request.caller) {
      throw request.keyPresented
        ? new ApiError('API_KEY_INVALID', 'The API key is not valid (unknown or revoked)')
        : new ApiError('API_KEY_MISSING', 'Send an API key in the apiKey header (or X-API-Key, or Authorization: Bearer)');
    }
    if (request.caller && !inFlight.enter(request.caller.accountId, reply.raw)) {
      throw new ApiError('RATE_LIMITED', `Too many requests in flight for this account (at most ${inFlight.limit}); retry in 1 s`, undefined, {
        'retry-after': '1',
      });
    }
  }
  app.addHook('onRequest', admit);
  app.addHook('preHandler', faultInjection(options.store, options.faultRandom ?? Math.random));

  for (const endpoint of endpoints) {
    // A lock held by another process (an admin command) is waited for between attempts,
    // not inside SQLite, so other requests are answered meanwhile. The first attempt runs at
    // once: nearly always it is the only one.
    app.route({
      method: endpoint.method,
      url: endpoint.url,
      handler: (request, reply) => {
        try {
          return endpoint.handler(request, reply);
        } catch (error) {
          if (!isBusyError(error)) throw error;
          return retryWhileBusy(() => endpoint.handler(request, reply), { deadlineMs: BUSY_TIMEOUT_MS });
        }
      },
    });
  }

  app.setNotFoundHandler((request) => {
    throw new ApiError('NOT_FOUND', `No route ${request.method} ${shown(request.url.split('?')[0]!, ECHO_MAX)}`);
  });

  function answerError(error: unknown, reply: FastifyReply): FastifyReply {
    const apiError = error instanceof ApiError ? error : isBusyError(error) ? databaseBusy() : fromFrameworkError(error as FastifyError);
    if (!apiError) {
      options.errorLog?.(error);
      return reply.code(500).send({ error: 'INTERNAL_ERROR', message: 'Internal error; it has been logged' });
    }
    return reply.code(apiError.status).headers(apiError.headers).send(apiError.body());
  }
  app.setErrorHandler((error: FastifyError | ApiError, _request: FastifyRequest, reply: FastifyReply) => answerError(error, reply));

  // Once closing, a response ends its connection: a keep-alive socket that turns idle only
  // after close() began (a slow upload finishing, say) would otherwise hold the process open
  // for the whole keep-alive timeout.
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  const accessLine = (method: string, url: string, status: number, elapsedMs: number) =>
    `${new Date(now()).toISOString()} ${method} ${shown(url, LOGGED_MAX)} ${status} ${elapsedMs.toFixed(1)}ms`;
  if (logAccess) {
    app.addHook('onResponse', async (request, reply) => {
      logAccess(accessLine(request.method, request.url, reply.statusCode, reply.elapsedTime));
    });
  }
  return app;
}

type ClientErrorBody = ReturnType<ApiError['body']>;

/** What Node's parser errors mean in the service's vocabulary. */
function clientErrorAnswer(error: Error & { code?: string }): { status: number; body: ClientErrorBody } {
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
function answerClientError(error: Error & { code?: string }, socket: Socket, answer: { status: number; body: ClientErrorBody }): void {
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

/** Fastify's own errors (body parsing, limits) in the service's vocabulary; null for bugs. */
function fromFrameworkError(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('VALIDATION_FAILED', 'Request body failed validation', [{ path: '', message: 'The body is empty' }]);
  }
  // Malformed JSON and poisoned prototypes arrive as SyntaxErrors marked 400.
  if (error.statusCode === 400 || error instanceof SyntaxError) {
    return new ApiError('VALIDATION_FAILED', 'Request body failed validation', [{ path: '', message: 'The body is not valid JSON' }]);
  }
  if (error.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
  if (error.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  return null;
}

/** The database stayed locked by another process past the wait; nothing was written. */
const databaseBusy = () =>
  new ApiError('SERVICE_UNAVAILABLE', 'The database is busy (locked by another process); try again', undefined, { 'retry-after': '1' });
