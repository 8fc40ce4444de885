import {
  analysesQuerySchema,
  analysisSchema,
  legacyAnalysesBodySchema,
  paginated,
  pageQuerySchema,
  queueRunSchema,
  queueRunsQuerySchema,
  queueSchema,
} from '../../contract/index.js';
import { demoQueues } from '../seed/demo.js';
import type { Store } from '../store/index.js';
import { defineEndpoint, type Endpoint } from './endpoint.js';

export function queueEndpoints(store: Store): Endpoint[] {
  return [
    defineEndpoint({
      operationId: 'listQueues',
      summary: "The account's saved queues with their steps",
      query: pageQuerySchema,
      response: { status: 200, schema: paginated(queueSchema), description: 'A page of queues' },
      handler: ({ caller, query }) => store.queues.list(caller.accountId, query.page, query.limit),
    }),
    defineEndpoint({
      operationId: 'listQueueRuns',
      summary: 'Enqueued and executed runs with per-step status (poll this to follow a run)',
      query: queueRunsQuerySchema,
      response: { status: 200, schema: paginated(queueRunSchema), description: 'A page of queue runs' },
      handler: ({ caller, query }) => store.queueRuns.list(caller.accountId, query),
    }),
    defineEndpoint({
      operationId: 'listAnalyses',
      summary: "The account's analyses; filters combine with AND",
      query: analysesQuerySchema,
      response: { status: 200, schema: paginated(analysisSchema), description: 'A page of analyses' },
      handler: ({ caller, query }) => store.analyses.list(caller.accountId, query),
    }),
    defineEndpoint({
      operationId: 'searchAnalysesV0',
      // Deprecated since 2025-01-01T00:00:00Z; RFC 9745 writes the moment as @unix-seconds.
      deprecated: { since: '@1735689600', successor: '/api/v2/analyses' },
      summary: 'Deprecated: use GET /api/v2/analyses. Unordered, and only one filter applies',
      // No body, or JSON null, means no filter.
      body: legacyAnalysesBodySchema.nullable(),
      bodyOptional: true,
      bodyExample: { lotId: demoQueues[0]!.steps[0]!.lotId },
      response: { status: 200, schema: paginated(analysisSchema), description: 'A page of matching analyses (100 unless limit says less), unordered' },
      handler: ({ caller, body }) => store.analyses.legacyList(caller.accountId, body ?? {}, body?.page, body?.limit),
    }),
  ];
}
