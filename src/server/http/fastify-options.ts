import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import { MAX_BODY_BYTES } from '../../contract/template-rules.js';
import type { Limits } from '../limits.js';
import { noSchemaCompilers } from './no-schema-compilers.js';

/**
 * Fastify's configuration: limits, deadlines and routing. What Fastify and Node would refuse
 * themselves (a request without Host, a closing server, a malformed URL, a parser error) the
 * service refuses instead, in its own error shape: see the two handlers passed in.
 */
export function fastifyOptions(
  limits: Pick<Limits, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>,
  handlers: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>,
): FastifyHttpOptions<Server> {
  const { requestTimeoutMs: requestTimeout, headersTimeoutMs: headersTimeout } = limits;
  return {
    logger: false,
    // Routes validate with zod and send their own bytes: no ajv or fast-json-stringify to load.
    schemaController: noSchemaCompilers,
    bodyLimit: MAX_BODY_BYTES,
    requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node enforces both deadlines only when it checks its connections, every 30 s by
    // default: a half-sent header could hold a socket for 40 s instead of 10.
    // A request without Host is refused by the gate, in the service's shape and logged, not
    // with Node's bare 400.
    http: {
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
      requireHostHeader: false,
    },
    // No idle timer on a socket while its request is served: the deadlines above, the slow
    // reader's limits (slow-readers.ts) and Node's keep-alive timeout cover every wait on the
    // client, and re-arming a timer for each request cost throughput on cached pages
    // (docs/performance.md, "What was cut").
    connectionTimeout: 0,
    // Refused by the gate instead, in the service's error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ...handlers,
  };
}
