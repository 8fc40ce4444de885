import type { FastifyReply } from 'fastify';
import type { Endpoint } from '../routes/endpoint.js';

/**
 * Step 4 of the gate: a request to a deprecated endpoint's path gets the Deprecation and
 * successor Link headers (RFC 9745). By path, so even a 405 on the old route says so.
 */
export function deprecationMarks(endpoints: readonly Endpoint[]): (reply: FastifyReply, path: string) => void {
  const deprecatedByPath = new Map(
    endpoints.flatMap((endpoint) => (endpoint.deprecated ? [[endpoint.url, endpoint.deprecated] as const] : [])),
  );
  return (reply, path) => {
    if (deprecatedByPath.size === 0) return;
    const deprecated = deprecatedByPath.get(path.endsWith('/') ? path.replace(/\/+$/, '') : path);
    if (deprecated) {
      reply.header('deprecation', deprecated.since);
      reply.header('link', `<${deprecated.successor}>; rel="successor-version"`);
    }
  };
}
