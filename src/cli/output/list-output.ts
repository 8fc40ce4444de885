import type { Listing } from '../../client/api.js';
import type { RequestOptions } from '../../client/http.js';
import type { CliDeps } from '../cmdutil/context.js';
import { ExitCode, SilentFailure, UsageError } from '../cmdutil/errors.js';
import type { ListOptions } from './list-options.js';
import { jsonText, pageFooter, printJson, printTable, tsvRow, type Column } from './output.js';
import { writeData, writeLine } from '../iostreams/io.js';

/**
 * The one way every list command prints: a page (table, or the service's JSON envelope), or
 * with --all every item (JSON: the same envelope, streamed item by item so memory stays flat).
 * Ctrl-C during --all prints what was fetched, whole, and says how much that was.
 */
export async function printList<T>(
  deps: CliDeps,
  options: ListOptions & { json?: boolean; verbose?: boolean; color?: boolean },
  request: {
    listing: Listing<T>;
    query: RequestOptions['query'];
    /** What the list holds, for "no … match". */
    noun: string;
  },
  columns: Column<T>[],
): Promise<void> {
  if (options.all && options.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  // --all asks for the largest pages the service gives, so its pace is the same for every list.
  if (options.all && options.limit !== undefined) throw new UsageError('--all and --limit cannot be used together', '--all fetches every item (100 per request); --limit N alone gives the first N');
  if (options.all) {
    const walk = new Walk(request.listing, request.query, deps.signal);
    await printAll(deps, options, walk, request.noun, columns);
    if (walk.interrupted) {
      deps.io.progress.stop();
      const fetched = `interrupted after fetching ${walk.fetched} of ${walk.total ?? 'an unknown number of'} ${request.noun}`;
      writeLine(deps.io.stderr, `reportctl: ${fetched}; those are printed`);
      throw new SilentFailure(ExitCode.interrupted, fetched);
    }
    return;
  }
  const page = await request.listing.list({
    ...request.query,
    ...(options.page !== undefined ? { page: options.page } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
  });
  deps.io.progress.stop();
  if (options.json) {
    printJson(deps, page);
    return;
  }
  if (page.total === 0 && deps.io.isStdoutTTY()) return nothingMatches(deps, request.noun);
  await printTable(deps, await deps.io.style(options.color), columns, page.data);
  // A notice for people: in a pipeline it is noise on the terminal the script runs in.
  if (deps.io.isStderrTTY() || options.verbose === true) pageFooter(deps, page.data.length, page.page, page.total);
}

/** An empty table says nothing; on a terminal, say so in words (on stderr: it is not data). */
function nothingMatches(deps: CliDeps, noun: string): void {
  writeLine(deps.io.stderr, `no ${noun} match`);
}

/**
 * Every item of a list as JSON in the one shape of a list, `{ total, page, limit, data }`
 * (README, "Output"), written item by item. With every page in one, `page` is 1, `limit` the
 * number of items in `data`, and `total` the service's count.
 */
export function jsonList(deps: CliDeps) {
  let count = 0;
  return {
    async item(item: unknown): Promise<void> {
      await writeData(deps.io.stdout, (count === 0 ? '{"data":[' : ',') + jsonText(deps, item));
      count += 1;
    },
    /** Closes the JSON; `total` is the service's count (the items written when not known). */
    async end(total = count): Promise<void> {
      await writeData(deps.io.stdout, `${count === 0 ? '{"data":[' : ''}],"total":${total},"page":1,"limit":${count}}\n`);
    },
  };
}

/** Every page, once; Ctrl-C ends it early and quietly, so what was fetched is still printed. */
class Walk<T> implements AsyncIterable<T> {
  fetched = 0;
  /** The service's count, once the first page has come. */
  total?: number;
  interrupted = false;

  constructor(
    private readonly listing: Listing<T>,
    private readonly query: RequestOptions['query'],
    private readonly signal: AbortSignal,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      for await (const item of this.listing.listAll(this.query, this.signal, (total) => (this.total = total))) {
        this.fetched += 1;
        yield item;
      }
    } catch (error) {
      if (!this.signal.aborted) throw error;
      this.interrupted = true;
    }
  }
}

/** With --all: JSON, one array streamed item by item; piped, a row per item as it comes; on a terminal, one table. */
async function printAll<T>(deps: CliDeps, options: { json?: boolean; color?: boolean }, walk: Walk<T>, noun: string, columns: Column<T>[]): Promise<void> {
  if (options.json) {
    const list = jsonList(deps);
    for await (const item of walk) await list.item(item);
    // Interrupted, `limit` (the items in `data`) falls short of `total`.
    await list.end(walk.total ?? walk.fetched);
    return;
  }
  if (!deps.io.isStdoutTTY()) {
    // Piped rows need no column widths: each goes out as it arrives.
    for await (const item of walk) await writeData(deps.io.stdout, tsvRow(columns, item) + '\n');
    return;
  }
  const rows: T[] = [];
  for await (const item of walk) rows.push(item);
  deps.io.progress.stop();
  if (rows.length === 0 && !walk.interrupted) return nothingMatches(deps, noun);
  await printTable(deps, await deps.io.style(options.color), columns, rows);
}
