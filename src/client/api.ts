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
  type QueueRun,
} from '../contract/index.js';
import type { ApiClient, RequestOptions } from './http.js';

/** The service's endpoints, each read with the lenient contract schema. */
export function serviceApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    client,
    templates: {
      list: (query: RequestOptions['query']) => client.get('/api/v2/templates', paginated(templateSchema), { query }),
      get: (id: string) => client.get(`/api/v2/templates/${enc(id)}`, templateSchema),
      create: (body: unknown) => client.send('POST', '/api/v2/templates', body, templateSchema),
      replace: (id: string, body: unknown) => client.send('PUT', `/api/v2/templates/${enc(id)}`, body, templateSchema),
      delete: async (id: string) => {
        await client.request('DELETE', `/api/v2/templates/${enc(id)}`);
      },
      presets: (query: RequestOptions['query'] = {}) => client.get('/api/v2/templates/presets', paginated(presetSchema), { query }),
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
    queues: {
      list: (query: RequestOptions['query']) => client.get('/api/v2/queues', paginated(queueSchema), { query }),
    },
    queueRuns: {
      list: (query: RequestOptions['query'], signal?: AbortSignal) =>
        client.get('/api/v2/queue-runs', paginated(queueRunSchema), { query, ...(signal ? { signal } : {}) }),
    },
    analyses: {
      list: (query: RequestOptions['query']) => client.get('/api/v2/analyses', paginated(analysisSchema), { query }),
    },
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
