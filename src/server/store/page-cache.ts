import type Database from 'better-sqlite3';

export interface PageCacheLimits {
  /** Pages kept at most, across accounts; the least recently used go first. */
  maxPages: number;
  /** Bytes kept at most, across accounts. */
  maxBytes: number;
  /** A larger page is not kept: it would push out many small ones. */
  maxPageBytes: number;
}

const DEFAULT_LIMITS: PageCacheLimits = { maxPages: 1024, maxBytes: 32 * 1024 * 1024, maxPageBytes: 1024 * 1024 };

interface CachedPage {
  accountId: string;
  query: string;
  epoch: number;
  generation: number;
  /** When it was last handed out, on the cache's own clock: the lowest goes first. */
  used: number;
  /** The page as one part, handed out as it is to every hit: read only, never changed. */
  parts: readonly [Buffer];
}

/**
 * The JSON bytes of list pages, kept per account and query, for the next identical request.
 * A page is served only while nothing it could show has changed:
 * - another connection (an admin command in another process, the service's other
 *   connections) commits: PRAGMA data_version moves, and every page is dropped;
 * - this connection writes outside `write` (an import, a reset, an account removed):
 *   total_changes() moves unexplained, and every page is dropped;
 * - this connection writes the account's rows through `write`: only that account's pages go
 *   (its generation moves), other accounts keep theirs.
 * total_changes() is read before every lookup, data_version from `version` (which the service
 * reads once per request, see DataVersion). A page read while anything changed is sent
 * but not kept.
 */
export function pageCache(db: Database.Database, version: () => number, limits: PageCacheLimits = DEFAULT_LIMITS) {
  const changesStatement = db.prepare('SELECT total_changes()').pluck();
  const read = (): [totalChanges: number, dataVersion: number] => [changesStatement.get() as number, version()];
  let [totalChanges, dataVersion] = read();
  let epoch = 0;
  let generations = new Map<string, number>();
  // By account, then query: a hit builds no key text (the account id and the query text are
  // the same strings from request to request, their hashes already known).
  const pages = new Map<string, Map<string, CachedPage>>();
  // Recency as a counter on each page: moving a hit to the end of an ordered map or set on
  // every request makes the table rebuild itself again and again. Pages are few (maxPages),
  // and a search for the oldest happens only when a page read from the database is kept.
  let clock = 0;
  let pagesKept = 0;
  let bytesKept = 0;

  /** The current epoch, after dropping everything if the database changed unexplained. */
  function currentEpoch(): number {
    const [changes, version] = read();
    if (changes !== totalChanges || version !== dataVersion) {
      totalChanges = changes;
      dataVersion = version;
      epoch += 1;
      generations = new Map();
      pages.clear();
      pagesKept = 0;
      bytesKept = 0;
    }
    return epoch;
  }

  function drop(page: CachedPage): void {
    const ofAccount = pages.get(page.accountId)!;
    ofAccount.delete(page.query);
    if (ofAccount.size === 0) pages.delete(page.accountId);
    pagesKept -= 1;
    bytesKept -= page.parts[0].length;
  }

  function leastRecentlyUsed(): CachedPage | undefined {
    let oldest: CachedPage | undefined;
    for (const ofAccount of pages.values()) {
      for (const page of ofAccount.values()) if (oldest === undefined || page.used < oldest.used) oldest = page;
    }
    return oldest;
  }

  function keep(page: CachedPage): void {
    const previous = pages.get(page.accountId)?.get(page.query);
    if (previous) drop(previous);
    const ofAccount = pages.get(page.accountId) ?? new Map<string, CachedPage>();
    pages.set(page.accountId, ofAccount.set(page.query, page));
    pagesKept += 1;
    bytesKept += page.parts[0].length;
    while (pagesKept > limits.maxPages || bytesKept > limits.maxBytes) drop(leastRecentlyUsed()!);
  }

  return {
    /**
     * The page for `accountId` and `query` (any text that tells two queries apart), from the
     * cache or else from `readPage`. A page small enough to keep comes back as one joined
     * part; a larger one in its parts as read (never copied whole).
     */
    page(accountId: string, query: string, readPage: () => Promise<Buffer[]>): readonly Buffer[] | Promise<readonly Buffer[]> {
      const epochAtStart = currentEpoch();
      const generation = generations.get(accountId) ?? 0;
      const hit = pages.get(accountId)?.get(query);
      if (hit && hit.epoch === epochAtStart && hit.generation === generation) {
        hit.used = ++clock;
        // At once, not through a promise: a hit is most list requests under load.
        return hit.parts;
      }
      return readPage().then((parts) => {
        if (parts.reduce((sum, part) => sum + part.length, 0) > limits.maxPageBytes) return parts;
        const joined = [Buffer.concat(parts)] as const;
        if (currentEpoch() === epochAtStart && (generations.get(accountId) ?? 0) === generation) {
          keep({ accountId, query, epoch: epochAtStart, generation, used: ++clock, parts: joined });
        }
        return joined;
      });
    },
    /** Runs a write of this connection to the account's rows: that account's pages are dropped. */
    write<T>(accountId: string, write: () => T): T {
      // What changed before this write, unexplained, drops everything first.
      currentEpoch();
      try {
        return write();
      } finally {
        generations.set(accountId, (generations.get(accountId) ?? 0) + 1);
        // The write is explained; data_version is left as it was, so a commit of another
        // connection meanwhile is still seen at the next lookup.
        [totalChanges] = read();
      }
    },
  };
}
