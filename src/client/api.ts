import type { Catalogs, Paginated, QueueRun } from '../contract/index.js';
import type { ApiClient, RequestOptions } from './http.js';
import { allItems } from './paging.js';
import { shapes, type ResponseShape } from './response-validation.js';

type Query = RequestOptions['query'];

/** One of the service's paginated lists. */
export interface Listing<T> {
  /** One page, as the service sent it. */
  list(query: Query, signal?: AbortSignal): Promise<Paginated<T>>;
  /**
   * Every item across the pages, each once, paced under the rate limit; returns the last total.
   * `onTotal` hears the service's total with each page.
   */
  listAll(query?: Query, signal?: AbortSignal, onTotal?: (total: number) => void): AsyncGenerator<T, { total: number }>;
}

function listing<T>(client: ApiClient, path: string, envelope: ResponseShape<Paginated<T>>): Listing<T> {
  return {
    list: (query, signal) => client.get(path, envelope, { query, ...(signal ? { signal } : {}) }),
    listAll: (query = {}, signal, onTotal) => allItems(client, path, envelope, query, signal, onTotal),
  };
}

/** The service's endpoints, each read as the lenient contract schema (its generated check first). */
export function serviceApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    client,
    templates: {
      ...listing(client, '/api/v2/templates', shapes.templatePage),
      get: (id: string) => client.get(`/api/v2/templates/${enc(id)}`, shapes.template),
      create: (body: unknown) => client.send('POST', '/api/v2/templates', body, shapes.template),
      replace: (id: string, body: unknown) => client.send('PUT', `/api/v2/templates/${enc(id)}`, body, shapes.template),
      delete: async (id: string) => {
        await client.request('DELETE', `/api/v2/templates/${enc(id)}`);
      },
      validateFormula: (formula: string) =>
        client.send('POST', '/api/v2/templates/validate-formula', { formula }, shapes.validateFormulaResult),
    },
    catalogs: {
      reportTypes: () => client.get('/api/v2/catalogs/report-types', shapes.reportTypesCatalog),
      statistics: () => client.get('/api/v2/catalogs/statistics', shapes.statisticsCatalog),
      vegetationIndexDefaults: () => client.get('/api/v2/catalogs/vegetation-index-defaults', shapes.vegetationIndexDefaults),
      all: async (): Promise<Catalogs> => {
        const [reportTypes, statistics, vegetationIndexDefaults] = await Promise.all([
          client.get('/api/v2/catalogs/report-types', shapes.reportTypesCatalog),
          client.get('/api/v2/catalogs/statistics', shapes.statisticsCatalog),
          client.get('/api/v2/catalogs/vegetation-index-defaults', shapes.vegetationIndexDefaults),
        ]);
        return { reportTypes, statistics, vegetationIndexDefaults };
      },
    },
    presets: listing(client, '/api/v2/templates/presets', shapes.presetPage),
    queues: listing(client, '/api/v2/queues', shapes.queuePage),
    queueRuns: listing(client, '/api/v2/queue-runs', shapes.queueRunPage),
    analyses: listing(client, '/api/v2/analyses', shapes.analysisPage),
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
