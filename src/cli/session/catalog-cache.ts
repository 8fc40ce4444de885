import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Catalogs } from '../../contract/index.js';
import { decodeUtf8 } from '../../encoding/utf8.js';
import { conforms, shapes, type ResponseShape } from '../../client/response-validation.js';
import type { CliDeps } from '../cmdutil/context.js';
import { replaceFile } from '../output/output-file.js';
import type { Session } from './session.js';

/** Reused without asking for this long when the service says nothing (Cache-Control wins). */
const DEFAULT_MAX_AGE_MS = 5 * 60_000;
const FORMAT = 1;

const CATALOGS = {
  reportTypes: { path: '/api/v2/catalogs/report-types', shape: shapes.reportTypesCatalog },
  statistics: { path: '/api/v2/catalogs/statistics', shape: shapes.statisticsCatalog },
  vegetationIndexDefaults: { path: '/api/v2/catalogs/vegetation-index-defaults', shape: shapes.vegetationIndexDefaults },
} as const satisfies { [K in keyof Catalogs]: { path: string; shape: ResponseShape<Catalogs[K]> } };
type Name = keyof typeof CATALOGS;

interface CachedCatalog {
  etag?: string;
  body: unknown;
}
interface CacheFile {
  format: number;
  checkedAt: number;
  maxAgeMs: number;
  catalogs: Partial<Record<Name, CachedCatalog>>;
}

/** REPORTCTL_CACHE_DIR, else beside an explicit config dir, else the user's cache folder. */
export function cacheDir(env: CliDeps['env']): string {
  if (env.REPORTCTL_CACHE_DIR) return env.REPORTCTL_CACHE_DIR;
  if (env.REPORTCTL_CONFIG_DIR) return join(env.REPORTCTL_CONFIG_DIR, 'cache');
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'reportctl');
}

/** One file per service and key: accounts may one day see different catalogs. */
function cacheFile(session: Session, env: CliDeps['env']): string {
  const owner = createHash('sha256').update(`${session.settings.baseUrl}\n${session.settings.apiKey ?? ''}`).digest('hex').slice(0, 24);
  return join(cacheDir(env), `catalogs-${owner}.json`);
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    // A cache that is not strict UTF-8 is damaged like any other: ignored, and fetched again.
    const cache = JSON.parse(decodeUtf8(await readFile(file))) as CacheFile;
    return cache.format === FORMAT && typeof cache.checkedAt === 'number' ? cache : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the service's Cache-Control allows: `no-store` keeps nothing; `no-cache` keeps the
 * copy but asks again (with its ETag) every time; `max-age` keeps it that long.
 */
function freshnessOf(cacheControl: string | undefined): { maxAgeMs?: number; store: boolean } {
  if (cacheControl === undefined) return { store: true };
  if (/no-store/i.test(cacheControl)) return { maxAgeMs: 0, store: false };
  if (/no-cache/i.test(cacheControl)) return { maxAgeMs: 0, store: true };
  const seconds = /max-age=(\d+)/i.exec(cacheControl)?.[1];
  return seconds === undefined ? { store: true } : { maxAgeMs: Number(seconds) * 1000, store: true };
}

async function parsed(cache: CacheFile | undefined): Promise<Catalogs | undefined> {
  if (!cache) return undefined;
  const catalogs: Partial<Catalogs> = {};
  for (const name of Object.keys(CATALOGS) as Name[]) {
    const result = await conforms<unknown>(CATALOGS[name].shape, cache.catalogs[name]?.body);
    if (!result.success) return undefined;
    (catalogs as Record<Name, unknown>)[name] = result.data;
  }
  return catalogs as Catalogs;
}

/**
 * The catalogs kept for this service and key, however old: what the language server checks
 * against until the service answers, or when it cannot be reached.
 */
export async function storedCatalogs(session: Session, env: CliDeps['env']): Promise<Catalogs | undefined> {
  return parsed(await readCache(cacheFile(session, env)));
}

/**
 * The three catalogs, read at most once per command and kept on disk per service and key as
 * the service's Cache-Control says (`serve` says `no-cache`: ask again before each use; a few
 * minutes when it says nothing). Once stale they are revalidated with their ETags, so an
 * unchanged catalog costs a 304 and no body.
 */
export async function cachedCatalogs(session: Session, deps: CliDeps): Promise<Catalogs> {
  const file = cacheFile(session, deps.env);
  const cache = await readCache(file);
  const fresh = cache && deps.clock.now() - cache.checkedAt < cache.maxAgeMs ? await parsed(cache) : undefined;
  if (fresh) return fresh;
  const next: CacheFile = { format: FORMAT, checkedAt: deps.clock.now(), maxAgeMs: DEFAULT_MAX_AGE_MS, catalogs: {} };
  let store = true;
  await Promise.all(
    (Object.keys(CATALOGS) as Name[]).map(async (name) => {
      const known = cache?.catalogs[name];
      const etag = known?.etag;
      const result = await session.api.client.request('GET', CATALOGS[name].path, etag !== undefined ? { headers: { 'if-none-match': etag } } : {});
      const body = result.status === 304 ? known?.body : result.body;
      const newTag = result.headers.etag ?? (result.status === 304 ? etag : undefined);
      next.catalogs[name] = { ...(newTag !== undefined ? { etag: newTag } : {}), body };
      const freshness = freshnessOf(result.headers['cache-control']);
      if (freshness.maxAgeMs !== undefined) next.maxAgeMs = Math.min(next.maxAgeMs, freshness.maxAgeMs);
      store &&= freshness.store;
    }),
  );
  const catalogs = await parsed(next);
  if (!catalogs) {
    // What the service sent is not a catalog: read it the strict way, for the error it gives.
    return session.api.catalogs.all();
  }
  if (store) await writeCache(file, next);
  return catalogs;
}

/** Written whole or not at all; a cache that cannot be written only costs requests. */
async function writeCache(file: string, cache: CacheFile): Promise<void> {
  try {
    await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
    await replaceFile(file, JSON.stringify(cache), 0o600);
  } catch {
    // Nothing to do: the next command asks the service again.
  }
}
