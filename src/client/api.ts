import {
  analysisSchema,
  paginated,
  presetSchema,
  queueRunSchema,
  queueSchema,
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  templateSchema,
  validateFormulaResultSchema,
  vegetationIndexDefaultsSchema,
  type Catalogs,
  type Paginated,
  type QueueRun,
} from '../contract/index.js';
import type { z } from 'zod';
import type { ApiClient, RequestOptions } from './http.js';
import { allItems } from './paging.js';

type Query = RequestOptions['query'];

/** One of the service's paginated lists. */
export interface Listing<T> {
  /** One page, as the service sent it. */
  list(query: Query, signal?: AbortSignal): Promise<Paginated<T>>;
  /** Every item across the pages, each once, paced under the rate limit; returns the last total. */
  listAll(query?: Query, signal?: AbortSignal): AsyncGenerator<T, { total: number }>;
}

function listing<T extends z.ZodType>(client: ApiClient, path: string, itemSchema: T): Listing<z.infer<T>> {
  const envelope = paginated(itemSchema);
  return {
    list: (query, signal) => client.get(path, envelope, { query, ...(signal ? { signal } : {}) }),
    listAll: (query = {}, signal) => allItems(client, path, itemSchema, query, signal),
  };
}

/** The service's endpoints, each read with the lenient contract schema. */
export function serviceApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    client,
    templates: {
      ...listing(client, '/api/v2/templates', templateSchema),
      get: (id: string) => client.get(`/api/v2/templates/${enc(id)}`, templateSchema),
      create: (body: unknown) => client.send('POST', '/api/v2/templates', body, templateSchema),
      replace: (id: string, body: unknown) => client.send('PUT', `/api/v2/templates/${enc(id)}`, body, templateSchema),
      delete: async (id: string) => {
        await client.request('DELETE', `/api/v2/templates/${enc(id)}`);
      },
      validateFormula: (formula: string) =>
        client.send('POST', '/api/v2/templates/validate-formula', { formula }, validateFormulaResultSchema),
    },
    catalogs: {
      reportTypes: () => client.get('/api/v2/catalogs/report-types', reportTypesCatalogSchema),
      statistics: () => client.get('/api/v2/catalogs/statistics', statisticsCatalogSchema),
      vegetationIndexDefaults: () => client.get('/api/v2/catalogs/vegetation-index-defaults', vegetationIndexDefaultsSchema),
      all: async (): Promise<Catalogs> => {
        const [reportTypes, statistics, vegetationIndexDefaults] = await Promise.all([
          client.get('/api/v2/catalogs/report-types', reportTypesCatalogSchema),
          client.get('/api/v2/catalogs/statistics', statisticsCatalogSchema),
          client.get('/api/v2/catalogs/vegetation-index-defaults', vegetationIndexDefaultsSchema),
        ]);
        return { reportTypes, statistics, vegetationIndexDefaults };
      },
    },
    presets: listing(client, '/api/v2/templates/presets', presetSchema),
    queues: listing(client, '/api/v2/queues', queueSchema),
    queueRuns: listing(client, '/api/v2/queue-runs', queueRunSchema),
    analyses: listing(client, '/api/v2/analyses', analysisSchema),
  };
}
export type ServiceApi = ReturnType<typeof serviceApi>;

/**
 * The service has no endpoint for one run, so a run is found in the list. `startPage` lets a
 * poller look first where it found the run last time (one request while nothing moves).
 */
export async function findQueueRun(
  api: ServiceApi,
  runId: string,
  startPage = 1,
  signal?: AbortSignal,
): Promise<{ run: QueueRun; page: number } | null> {
  const limit = 100;
  const first = await api.queueRuns.list({ page: startPage, limit }, signal);
  const hit = first.data.find((run) => run.id === runId);
  if (hit) return { run: hit, page: startPage };
  const pages = Math.max(1, Math.ceil(first.total / limit));
  for (let page = 1; page <= pages; page++) {
    if (page === startPage) continue;
    const result = await api.queueRuns.list({ page, limit }, signal);
    const found = result.data.find((run) => run.id === runId);
    if (found) return { run: found, page };
  }
  return null;
}
