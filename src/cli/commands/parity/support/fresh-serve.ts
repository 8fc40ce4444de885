import type { ScenarioContext } from './context.js';

/** What the fresh `serve` is loaded with: the target's catalogs and rate limits. */
export interface ServiceTraits {
  catalogs: { reportTypes?: unknown; statistics?: unknown; vegetationIndexDefaults?: unknown };
  limits: { reads?: number; writes?: number; windowSeconds?: number };
}

const CATALOG_STEPS = { reportTypes: 'listReportTypes', statistics: 'listStatistics', vegetationIndexDefaults: 'getVegetationIndexDefaults' } as const;

/** The catalogs as the target served them, and its limits as its RateLimit-Policy headers state them. */
export function traitsOf(context: ScenarioContext): ServiceTraits {
  const catalogs: ServiceTraits['catalogs'] = {};
  for (const [name, step] of Object.entries(CATALOG_STEPS)) {
    const answer = context.answers.get(step);
    if (answer?.status === 200) catalogs[name as keyof typeof CATALOG_STEPS] = answer.body;
  }
  const limits: ServiceTraits['limits'] = {};
  for (const answer of context.answers.values()) {
    const policy = /^"?(reads|writes)"?;q=(\d+);w=(\d+)/.exec(answer.headers['ratelimit-policy'] ?? '');
    if (!policy) continue;
    limits[policy[1] as 'reads' | 'writes'] = Number(policy[2]);
    limits.windowSeconds = Number(policy[3]);
  }
  return { catalogs, limits };
}

export interface FreshServe {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** `serve` in this process on a free port, in memory, with the target's catalogs and an account of its own. */
export async function startFreshServe(traits: ServiceTraits): Promise<FreshServe> {
  const { startServer, adminOperations } = await import('../../../../embedded.js');
  let apiKey = '';
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: ':memory:',
    demo: false,
    readsPerMinute: traits.limits.reads ?? 120,
    writesPerMinute: traits.limits.writes ?? 30,
    rateWindowMs: (traits.limits.windowSeconds ?? 60) * 1000,
    prepare: (store) => {
      if (Object.keys(traits.catalogs).length > 0) adminOperations.importCatalogs(store, traits.catalogs);
      apiKey = adminOperations.createAccount(store, { name: 'parity' }).apiKey;
    },
  });
  return { url: server.url, apiKey, close: () => server.close() };
}
