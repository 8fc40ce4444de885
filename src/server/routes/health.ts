import type { FastifyInstance } from 'fastify';

/** Outside the API's namespace: no key, no rate limit, not in the OpenAPI document. */
const HEALTH_PATH = '/healthz';

const HEALTH_ROUTE = { health: true };

/** Whether the request is the health check's, which the API's admission leaves alone. */
export function isHealthRequest(routeConfig: unknown): boolean {
  return (routeConfig as { health?: boolean } | undefined)?.health === true;
}

/**
 * For harnesses that wait for serve: 200 while it serves (it listens only once its store is
 * open), 503 once it is shutting down. The body says which, for a person reading it.
 */
export function registerHealth(app: FastifyInstance, serving: () => boolean): void {
  app.get(HEALTH_PATH, { config: HEALTH_ROUTE }, (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (serving()) return reply.code(200).send({ status: 'ok' });
    return reply.code(503).header('retry-after', '1').send({ status: 'shutting down' });
  });
}
