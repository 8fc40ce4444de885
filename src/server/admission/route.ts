import type { FastifyRequest } from 'fastify';
import { isDashboardRequest } from '../routes/dashboard.js';
import type { Endpoint } from '../routes/endpoint.js';
import { isHealthRequest } from '../routes/health.js';

/**
 * The endpoint a request is for: undefined for none (a 404 or 405 to come), null for a request
 * outside the API (the dashboard, the health check), which the gate's API steps leave alone.
 */
export type Routed = Endpoint | undefined | null;

/** Step 2 of the gate: which endpoint a request is for, by method and path. */
export function router(endpoints: readonly Endpoint[]): (request: FastifyRequest, method: string, path: string) => Routed {
  // By method, then route: no key to build per request.
  const byRoute = new Map<string, Map<string, Endpoint>>();
  for (const endpoint of endpoints) {
    const routes = byRoute.get(endpoint.method) ?? new Map<string, Endpoint>();
    byRoute.set(endpoint.method, routes.set(endpoint.url, endpoint));
  }
  return (request, method, path) => {
    // A path written exactly as an endpoint's is routed to it (a list, a create). Others (an
    // id, the dashboard) ask Fastify, whose routeOptions makes a new object on every call.
    const endpoint = byRoute.get(method)?.get(path);
    if (endpoint !== undefined) return endpoint;
    const routed = request.routeOptions;
    // Neither is part of the API: no key, no rate limit.
    if (isDashboardRequest(routed.config, request.url) || isHealthRequest(routed.config)) return null;
    return routed.url === undefined ? undefined : byRoute.get(method)?.get(routed.url);
  };
}
