import type { z } from 'zod';
import type { ApiClient, RequestOptions } from '../client/http.js';
import type { Paginated } from '../contract/index.js';
import type { CliDeps } from './context.js';
import { UsageError } from './errors.js';
import type { ListOptions } from './list-options.js';
import { jsonText, pageFooter, printJson, printTable, type Column } from './output.js';
import type { Session } from './session.js';
import { writeLine } from './io.js';

/**
 * The one way every list command prints: a page (table, or the service's JSON envelope), or
 * with --all every item (JSON: one array, streamed item by item so memory stays flat).
 */
export async function printList<T extends z.ZodType>(
  deps: CliDeps,
  session: Session,
  options: ListOptions & { json?: boolean },
  request: {
    path: string;
    itemSchema: T;
    query: RequestOptions['query'];
    fetchPage(query: RequestOptions['query']): Promise<Paginated<z.infer<T>>>;
  },
  columns: Column<z.infer<T>>[],
): Promise<void> {
  if (options.all && options.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  if (options.all) {
    const { allItems } = await import('../client/paging.js');
    const client: ApiClient = session.api.client;
    if (options.json) {
      deps.io.stdout.write('[');
      let first = true;
      for await (const item of allItems(client, request.path, request.itemSchema, request.query, deps.signal)) {
        deps.io.stdout.write((first ? '' : ',') + jsonText(deps, item));
        first = false;
      }
      writeLine(deps.io.stdout, ']');
      return;
    }
    const rows: z.infer<T>[] = [];
    for await (const item of allItems(client, request.path, request.itemSchema, request.query, deps.signal)) rows.push(item);
    session.progress.stop();
    await printTable(deps, session.style, columns, rows);
    return;
  }
  const page = await request.fetchPage({
    ...request.query,
    ...(options.page !== undefined ? { page: options.page } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
  });
  session.progress.stop();
  if (options.json) {
    printJson(deps, page);
    return;
  }
  await printTable(deps, session.style, columns, page.data);
  pageFooter(deps, page.data.length, page.page, page.total);
}
