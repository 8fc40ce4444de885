import type { Paginated } from '../contract/index.js';
import { PAGE_SIZE_MAX } from '../contract/vocabulary.js';
import { ListOverrunError } from './errors.js';
import type { ApiClient, RequestOptions } from './http.js';
import type { ResponseShape } from './response-validation.js';

/**
 * The most items one walk reads: 1,000 pages of 100. The service caps templates per account
 * (the local one at 100 unless an admin raises it), so no honest template list comes near;
 * queue runs and analyses, a few hundred bytes each, fit a hundred years of daily runs.
 */
const MAX_LIST_ITEMS = 100_000;

/**
 * The most JSON one walk reads: a thousand templates of the largest size the service accepts
 * (256 KiB), ten times the local service's default plan. A hostile service that never runs
 * out of pages stops here rather than filling the client's memory.
 */
const MAX_LIST_BYTES = 256 * 1024 * 1024;

interface ListCaps {
  items: number;
  bytes: number;
}

/**
 * Every item of a list, page by page, each exactly once: items that shift to a later page
 * while we read (a newer one was created) are recognised by id and skipped. The client's
 * own pacing keeps the walk under the rate limit.
 *
 * The walk always ends: it reads the pages the first page's total implies and no more, and
 * stops with a ListOverrunError when the service's answers cannot be an honest list (a total
 * past the caps or grown past those pages, a page of items already read, too many bytes).
 */
export async function* allItems<T>(
  client: ApiClient,
  path: string,
  envelope: ResponseShape<Paginated<T>>,
  query: RequestOptions['query'] = {},
  signal?: AbortSignal,
  onTotal?: (total: number) => void,
  caps: ListCaps = { items: MAX_LIST_ITEMS, bytes: MAX_LIST_BYTES },
): AsyncGenerator<T, { total: number }> {
  const seen = new Set<string>();
  let total = 0;
  let firstTotal = 0;
  let pages = 1;
  let bytes = 0;
  let items = 0;
  for (let page = 1; ; page++) {
    const answer = await client.request('GET', path, { query: { ...query, page, limit: PAGE_SIZE_MAX }, ...(signal ? { signal } : {}) });
    const result = await client.parse(envelope, answer);
    bytes += answer.bytes;
    if (bytes > caps.bytes) throw new ListOverrunError(path, `sent more than ${mib(caps.bytes)} in ${page} pages`, caps);
    if (page === 1) {
      if (result.total > caps.items) throw new ListOverrunError(path, `says it holds ${result.total} items`, caps);
      firstTotal = result.total;
      pages = Math.max(1, Math.ceil(firstTotal / PAGE_SIZE_MAX));
    }
    total = result.total;
    onTotal?.(total);
    let fresh = 0;
    for (const item of result.data) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      fresh += 1;
      items += 1;
      if (items > caps.items) throw new ListOverrunError(path, `sent more than ${caps.items} items`, caps);
      yield item;
    }
    // An item shifts a page when one is created while we read; a whole page of them is the
    // same page sent again.
    if (result.data.length > 0 && fresh === 0) throw new ListOverrunError(path, `sent page ${page} again (every item on it already read)`, caps);
    if (result.data.length === 0 || page >= pages) {
      if (total > pages * PAGE_SIZE_MAX) {
        throw new ListOverrunError(path, `grew past ${pages * PAGE_SIZE_MAX} items while it was read (${firstTotal} at first, ${total} now)`, caps);
      }
      return { total };
    }
  }
}

function mib(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}
