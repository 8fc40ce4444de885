import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import { noSchemaCompilers } from './no-schema-compilers.js';

const MIB = 1024 * 1024;

export interface ConnectionLimits {
  /** The whole request must arrive within this (default 30 s)... */
  requestTimeoutMs?: number | undefined;
  /** ...and its request line and headers within this (default 10 s). Tests shorten both. */
  headersTimeoutMs?: number | undefined;
  /** How long a keep-alive connection may stay idle between requests (default 30 s). */
  keepAliveTimeoutMs?: number | undefined;
}

/**
 * An idle keep-alive connection is closed after this (Fastify's default is 72 s), so idle ones
 * do not pile up. Not Node's 5 s: a client told 5 s (Keep-Alive: timeout=5) keeps its idle
 * connection about 4 s, and on a busy machine its next request then often meets the server
 * closing it ("other side closed"). Idle gaps near 30 s are rare.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;

/**
 * Fastify's configuration: limits, deadlines and routing. What Fastify and Node would answer
 * themselves (a request without Host, a closing server, a malformed URL, a parser error) is
 * answered by the service instead, in its own error shape: see the two handlers passed in.
 */
export function fastifyOptions(
  limits: ConnectionLimits,
  handlers: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>,
): FastifyHttpOptions<Server> {
  // Slow clients cannot hold a connection: whole request in 30 s, headers in 10 s.
  const requestTimeout = limits.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(limits.headersTimeoutMs ?? 10_000, requestTimeout);
  return {
    logger: false,
    // Routes validate with zod and send their own bytes: no ajv or fast-json-stringify to load.
    schemaController: noSchemaCompilers,
    bodyLimit: MIB,
    requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    // Node enforces both deadlines only when it checks its connections, every 30 s by
    // default: a half-sent header could hold a socket for 40 s instead of 10.
    // A request without Host is refused in admission, in the service's shape and logged, not
    // with Node's bare 400.
    http: {
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
      requireHostHeader: false,
    },
    // No idle timer on a socket while its request is served: the deadlines above, the answer
    // stall limit (admission) and Node's keep-alive timeout cover every wait on the client,
    // and re-arming a timer for each request would cost a tenth of the throughput of cached pages.
    connectionTimeout: 0,
    // Answered by admission instead, in the service's error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ...handlers,
  };
}
