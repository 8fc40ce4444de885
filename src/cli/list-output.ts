import type { Listing } from '../client/api.js';
import type { RequestOptions } from '../client/http.js';
import type { CliDeps } from './context.js';
import { UsageError } from './errors.js';
import type { ListOptions } from './list-options.js';
import { jsonText, pageFooter, printJson, printTable, tsvRow, type Column } from './output.js';
import type { Session } from './session.js';
import { isStdoutTTY, writeData, writeLine } from './io.js';

/**
 * The one way every list command prints: a page (table, or the service's JSON envelope), or
 * with --all every item (JSON: one array, streamed item by item so memory stays flat).
 */
export async function printList<T>(
  deps: CliDeps,
  session: Session,
  options: ListOptions & { json?: boolean },
  request: {
    listing: Listing<T>;
    query: RequestOptions['query'];
    /** What the list holds, for "no … match". */
    noun: string;
  },
  columns: Column<T>[],
): Promise<void> {
  if (options.all && options.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  if (options.all) {
    const items = request.listing.listAll(request.query, deps.signal);
    if (options.json) {
      let separator = '[';
      for await (const item of items) {
        await writeData(deps.io.stdout, separator + jsonText(deps, item));
        separator = ',';
      }
      await writeData(deps.io.stdout, separator === '[' ? '[]\n' : ']\n');
      return;
    }
    if (!isStdoutTTY(deps.io)) {
      // Piped rows need no column widths: each goes out as it arrives.
      for await (const item of items) await writeData(deps.io.stdout, tsvRow(columns, item) + '\n');
      return;
    }
    const rows: T[] = [];
    for await (const item of items) rows.push(item);
    session.progress.stop();
    if (rows.length === 0) return nothingMatches(deps, request.noun);
    await printTable(deps, session.style, columns, rows);
    return;
  }
  const page = await request.listing.list({
    ...request.query,
    ...(options.page !== undefined ? { page: options.page } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
  });
  session.progress.stop();
  if (options.json) {
    printJson(deps, page);
    return;
  }
  if (page.total === 0 && isStdoutTTY(deps.io)) return nothingMatches(deps, request.noun);
  await printTable(deps, session.style, columns, page.data);
  pageFooter(deps, page.data.length, page.page, page.total);
}

/** An empty table says nothing; on a terminal, say so in words (on stderr: it is not data). */
function nothingMatches(deps: CliDeps, noun: string): void {
  writeLine(deps.io.stderr, `no ${noun} match`);
}
