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
import { parseOr400 } from '../errors.js';
import { callerOf } from '../auth.js';
import { demoQueues } from '../seed/demo.js';
import type { Store } from '../store/index.js';
import type { Endpoint } from './table.js';

export function queueEndpoints(store: Store): Endpoint[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/queues',
      operationId: 'listQueues',
      kind: 'read',
      auth: true,
      summary: "The account's saved queues with their steps",
      query: pageQuerySchema,
      response: { status: 200, schema: paginated(queueSchema), description: 'A page of queues' },
      handler: (request) => {
        const query = parseOr400(pageQuerySchema, request.query, 'Query');
        return store.queues.list(callerOf(request).accountId, query.page, query.limit);
      },
    },
    {
      method: 'GET',
      url: '/api/v2/queue-runs',
      operationId: 'listQueueRuns',
      kind: 'read',
      auth: true,
      summary: 'Enqueued and executed runs with per-step status (poll this to follow a run)',
      query: queueRunsQuerySchema,
      response: { status: 200, schema: paginated(queueRunSchema), description: 'A page of queue runs' },
      handler: (request) => {
        const query = parseOr400(queueRunsQuerySchema, request.query, 'Query');
        return store.queueRuns.list(callerOf(request).accountId, query);
      },
    },
    {
      method: 'GET',
      url: '/api/v2/analyses',
      operationId: 'listAnalyses',
      kind: 'read',
      auth: true,
      summary: "The account's analyses; filters combine with AND",
      query: analysesQuerySchema,
      response: { status: 200, schema: paginated(analysisSchema), description: 'A page of analyses' },
      handler: (request) => {
        const query = parseOr400(analysesQuerySchema, request.query, 'Query');
        return store.analyses.list(callerOf(request).accountId, query);
      },
    },
    {
      method: 'POST',
      url: '/api/v0/analyses',
      operationId: 'searchAnalysesV0',
      kind: 'read',
      auth: true,
      // Deprecated since 2025-01-01T00:00:00Z; RFC 9745 writes the moment as @unix-seconds.
      deprecated: { since: '@1735689600', successor: '/api/v2/analyses' },
      summary: 'Deprecated: use GET /api/v2/analyses. Unordered, and only one filter applies',
      // No body, or JSON null, means no filter.
      body: legacyAnalysesBodySchema.nullable(),
      bodyOptional: true,
      bodyExample: { lotId: demoQueues[0]!.steps[0]!.lotId },
      response: { status: 200, schema: paginated(analysisSchema), description: 'The first 100 matching analyses, unordered' },
      handler: (request) => {
        const filter = parseOr400(legacyAnalysesBodySchema, request.body ?? {});
        return store.analyses.legacyList(callerOf(request).accountId, filter);
      },
    },
  ];
}
