import type { Step } from './context.js';

/** Queues, queue runs, analyses (v2 and the deprecated v0) and the OpenAPI document. */
export const readOnlySteps: readonly Step[] = [
  { name: 'listQueues', operation: 'listQueues', request: () => ({ method: 'GET', path: '/api/v2/queues', query: { limit: 5 } }) },
  { name: 'listQueueRuns', operation: 'listQueueRuns', request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { limit: 5 } }) },
  {
    name: 'listQueueRuns.status',
    operation: 'listQueueRuns',
    request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { status: 'completed', limit: 5 } }),
  },
  {
    name: 'listQueueRuns.inventedStatus',
    operation: 'listQueueRuns',
    request: () => ({ method: 'GET', path: '/api/v2/queue-runs', query: { status: 'no_such_status' } }),
  },
  { name: 'listAnalyses', operation: 'listAnalyses', request: () => ({ method: 'GET', path: '/api/v2/analyses', query: { limit: 5 } }) },
  {
    name: 'listAnalyses.analysisType',
    operation: 'listAnalyses',
    request: () => ({ method: 'GET', path: '/api/v2/analyses', query: { analysisType: 'counting', limit: 5 } }),
  },
  // The deprecated route: its headers, and its data in storage order.
  { name: 'searchAnalysesV0', operation: 'searchAnalysesV0', request: () => ({ method: 'POST', path: '/api/v0/analyses', body: {} }), unordered: true },
  {
    name: 'searchAnalysesV0.unknownField',
    operation: 'searchAnalysesV0',
    request: () => ({ method: 'POST', path: '/api/v0/analyses', body: { lot: 'x' } }),
  },
  {
    name: 'getOpenApiDocument',
    operation: 'getOpenApiDocument',
    request: () => ({ method: 'GET', path: '/api/v2/openapi.json' }),
    // The document's wording is its own; which operations it describes is what compares.
    project: (body) => {
      const paths = (body as { paths?: Record<string, object> } | undefined)?.paths ?? {};
      return { operations: Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)).sort() };
    },
    values: ['operations'],
  },
];
