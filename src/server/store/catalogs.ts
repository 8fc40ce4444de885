import type {
  Catalogs,
  Paginated,
  Preset,
  ReportTypesCatalog,
  StatisticsCatalog,
  VegetationIndexDefaults,
} from '../../contract/index.js';
import { envelope, timestamp, type PageRequest, type StoreContext } from './repository-context.js';

/** The row name of each catalog document. */
export const catalogNames = {
  reportTypes: 'report-types',
  statistics: 'statistics',
  vegetationIndexDefaults: 'vegetation-index-defaults',
} as const satisfies Record<keyof Catalogs, string>;

const catalogKeys = Object.keys(catalogNames) as Array<keyof Catalogs>;

/** Cached documents are shared by every caller, so nobody may change them in place. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function catalogsRepository(context: StoreContext) {
  const { db } = context;
  const readAll = db.prepare<[], { name: string; document: string }>('SELECT name, document FROM catalogs');
  const upsert = db.prepare<[string, string, string]>(
    `INSERT INTO catalogs (name, document, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
  );

  /*
   * Catalogs are read on every template write but change only by an admin. PRAGMA
   * data_version changes whenever another connection (an admin command in another process)
   * commits; our own writes drop the cache directly. So a change is seen by the very next
   * call, and unchanged documents are not parsed again.
   */
  let cache: { dataVersion: number; catalogs: Catalogs } | null = null;
  const { dataVersion } = context;

  function get(): Catalogs {
    const version = dataVersion();
    if (cache && cache.dataVersion === version) return cache.catalogs;
    const documents = new Map(readAll.all().map((row) => [row.name, row.document]));
    const parsed: Partial<Record<keyof Catalogs, unknown>> = {};
    for (const key of catalogKeys) {
      const document = documents.get(catalogNames[key]);
      if (document === undefined) throw new Error(`The ${catalogNames[key]} catalog is missing: the database was not seeded`);
      parsed[key] = JSON.parse(document);
    }
    const catalogs = deepFreeze(parsed as Catalogs);
    cache = { dataVersion: version, catalogs };
    return catalogs;
  }

  const replace = db.transaction((documents: Partial<Catalogs>) => {
    const updatedAt = timestamp(context);
    for (const key of catalogKeys) {
      const document = documents[key];
      if (document !== undefined) upsert.run(catalogNames[key], JSON.stringify(document), updatedAt);
    }
  });

  return {
    /** The three documents (frozen: shared with every other caller). */
    get,
    reportTypes: (): ReportTypesCatalog => get().reportTypes,
    statistics: (): StatisticsCatalog => get().statistics,
    vegetationIndexDefaults: (): VegetationIndexDefaults => get().vegetationIndexDefaults,
    /** Replaces the documents given (the caller has validated them), all or none. */
    import(documents: Partial<Catalogs>): void {
      try {
        replace.immediate(documents);
      } finally {
        cache = null;
      }
    },
  };
}

/** Presets are a curated list, so they keep the order they were seeded in (seq ascending). */
export function presetsRepository(context: StoreContext) {
  const { db } = context;
  const count = db.prepare<[], number>('SELECT count(*) FROM presets').pluck();
  const page = db.prepare<[number, number], string>('SELECT document FROM presets ORDER BY seq LIMIT ? OFFSET ?').pluck();
  const byId = db.prepare<[string], string>('SELECT document FROM presets WHERE id = ?').pluck();
  const readPage = db.transaction((request: PageRequest): Paginated<Preset> => {
    const total = count.get() ?? 0;
    const documents = page.all(request.limit, (request.page - 1) * request.limit);
    return envelope(
      total,
      request,
      documents.map((document) => JSON.parse(document) as Preset),
    );
  });

  return {
    list(pageNumber: number, limit: number): Paginated<Preset> {
      return readPage.deferred({ page: pageNumber, limit });
    },
    get(id: string): Preset | null {
      const document = byId.get(id);
      return document === undefined ? null : (JSON.parse(document) as Preset);
    },
  };
}
