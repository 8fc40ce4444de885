// The service's endpoints, free of zod: the server's route table is built on this list and the
// client counts its requests against the same rate-limit buckets from it.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Reads and writes are limited separately (docs/decisions.md: "Limits"). */
export type RequestKind = 'read' | 'write';

interface EndpointAddress {
  method: Method;
  /** A Fastify route: `:id` stands for a path parameter. */
  path: string;
  /** A POST that changes nothing, counted as a read. */
  read?: true;
}

/** Every endpoint by its operationId (the CLI's verb for it), in the order the document lists them. */
export const endpoints = {
  listTemplates: { method: 'GET', path: '/api/v2/templates' },
  listPresets: { method: 'GET', path: '/api/v2/templates/presets' },
  createTemplate: { method: 'POST', path: '/api/v2/templates' },
  getTemplate: { method: 'GET', path: '/api/v2/templates/:id' },
  replaceTemplate: { method: 'PUT', path: '/api/v2/templates/:id' },
  deleteTemplate: { method: 'DELETE', path: '/api/v2/templates/:id' },
  // Only reads, but counted as a write: the real service may count it so, and a client paced
  // for that is never surprised by it (docs/decisions.md, "Limits").
  validateFormula: { method: 'POST', path: '/api/v2/templates/validate-formula' },
  listReportTypes: { method: 'GET', path: '/api/v2/catalogs/report-types' },
  listStatistics: { method: 'GET', path: '/api/v2/catalogs/statistics' },
  getVegetationIndexDefaults: { method: 'GET', path: '/api/v2/catalogs/vegetation-index-defaults' },
  listQueues: { method: 'GET', path: '/api/v2/queues' },
  listQueueRuns: { method: 'GET', path: '/api/v2/queue-runs' },
  listAnalyses: { method: 'GET', path: '/api/v2/analyses' },
  searchAnalysesV0: { method: 'POST', path: '/api/v0/analyses', read: true },
  getOpenApiDocument: { method: 'GET', path: '/api/v2/openapi.json' },
} as const satisfies Record<string, EndpointAddress>;

export type OperationId = keyof typeof endpoints;

export function requestKindOf(endpoint: EndpointAddress): RequestKind {
  return endpoint.method === 'GET' || endpoint.read === true ? 'read' : 'write';
}

/** The POSTs counted as reads, matched at the end of a request's path (the base URL may add a prefix). */
const READ_POSTS: readonly RegExp[] = Object.values(endpoints as Record<string, EndpointAddress>)
  .filter((endpoint) => endpoint.method === 'POST' && endpoint.read)
  .map((endpoint) => new RegExp(`${endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`));

/** Which rate-limit bucket a request of this method to this path (no query string) counts against. */
export function requestKindOfRequest(method: string, path: string): RequestKind {
  return method === 'GET' || method === 'HEAD' || (method === 'POST' && READ_POSTS.some((pattern) => pattern.test(path))) ? 'read' : 'write';
}
