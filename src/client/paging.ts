import type { Paginated } from '../contract/index.js';
import { PAGE_SIZE_MAX } from '../contract/vocabulary.js';
import type { ApiClient, RequestOptions } from './http.js';
import type { ResponseShape } from './response-validation.js';

/**
 * Every item of a list, page by page, each exactly once: items that shift to a later page
 * while we read (a newer one was created) are recognised by id and skipped. The client's
 * own pacing keeps the walk under the rate limit.
 */
export async function* allItems<T>(
  client: ApiClient,
  path: string,
  envelope: ResponseShape<Paginated<T>>,
  query: RequestOptions['query'] = {},
  signal?: AbortSignal,
  onTotal?: (total: number) => void,
): AsyncGenerator<T, { total: number }> {
  const seen = new Set<string>();
  let total = 0;
  for (let page = 1; ; page++) {
    const result = await client.get(path, envelope, { query: { ...query, page, limit: PAGE_SIZE_MAX }, ...(signal ? { signal } : {}) });
    total = result.total;
    onTotal?.(total);
    for (const item of result.data) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield item;
    }
    if (result.data.length === 0 || page * result.limit >= result.total) return { total };
  }
}
