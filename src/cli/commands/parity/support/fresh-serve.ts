import type { Clock } from '../../../cmdutil/context.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { Keys } from './paced.js';
import type { ScenarioContext } from './step.js';

/** What the fresh `serve` is loaded with: the target's catalogs. */
export interface ServiceTraits {
  catalogs: { reportTypes?: unknown; statistics?: unknown; vegetationIndexDefaults?: unknown };
}

const CATALOG_STEPS = { reportTypes: 'listReportTypes', statistics: 'listStatistics', vegetationIndexDefaults: 'getVegetationIndexDefaults' } as const;

/** The catalogs as the target served them. */
export function traitsOf(context: ScenarioContext): ServiceTraits {
  const catalogs: ServiceTraits['catalogs'] = {};
  for (const [name, step] of Object.entries(CATALOG_STEPS)) {
    const answer = context.answers.get(step);
    if (answer?.status === 200) catalogs[name as keyof typeof CATALOG_STEPS] = answer.body;
  }
  return { catalogs };
}

/**
 * What serve's account holds before the run, as an account in use does: a queue, runs that
 * completed, failed and wait, their analyses, and one analysis of no run. The items of the
 * target's lists are compared with these (their fields and types), and v0's order and filters
 * are told from them.
 */
const HELD_DATA = {
  queues: [
    {
      name: 'parity',
      steps: [
        { lotId: 'lot-1', analysisType: 'counting' },
        { lotId: 'lot-2', analysisType: 'counting' },
        { lotId: 'lot-3', analysisType: 'replanting' },
      ],
    },
  ],
  runs: [
    { queue: 0, name: 'completed', estimatedHa: 12.5, advance: 20 },
    { queue: 0, name: 'failed', estimatedHa: 4, failAtStep: 2, advance: 20 },
    { queue: 0, name: 'waiting', estimatedHa: 7.25 },
  ],
  analyses: [{ lotId: 'lot-4', analysisType: 'path', status: 'failed' }],
};

export interface FreshServe {
  url: string;
  keys: Required<Keys>;
  /**
   * serve's own clock: the specification's rate limits, with waits that cost no time (a wait
   * moves this clock on at once), so serve runs at 120 reads and 30 writes a minute for free.
   */
  clock: Clock;
  /** How much this clock is ahead of the real one. */
  skipped(): number;
  close(): Promise<void>;
}

/** A clock that moves on at once when slept on, kept ahead of `real` by all it slept. */
function skippingClock(real: Clock): { clock: Clock; skipped: () => number } {
  let skipped = 0;
  return {
    clock: {
      now: () => real.now() + skipped,
      sleep: async (ms) => {
        skipped += ms;
      },
    },
    skipped: () => skipped,
  };
}

/**
 * `serve` in this process on a free port, in memory, with the target's catalogs, at the
 * specification's limits: an account holding a little of everything, a sub-user's key of
 * it, and another account.
 */
export async function startFreshServe(traits: ServiceTraits, real: Clock): Promise<FreshServe> {
  const { startServer, adminOperations } = await import('../../../../embedded.js');
  const { clock, skipped } = skippingClock(real);
  const keys: Partial<Required<Keys>> = {};
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: ':memory:',
    demo: false,
    readsPerMinute: 120,
    writesPerMinute: 30,
    now: clock.now,
    prepare: (store) => {
      if (Object.keys(traits.catalogs).length > 0) loadCatalogs(() => adminOperations.importCatalogs(store, traits.catalogs));
      const owner = adminOperations.createAccount(store, { name: 'parity' });
      adminOperations.seedFixtures(store, owner.accountId, HELD_DATA);
      keys.account = owner.apiKey;
      keys.subUser = adminOperations.createKey(store, owner.accountId, 'parity-sub-user').apiKey;
      keys.otherAccount = adminOperations.createAccount(store, { name: 'parity-other' }).apiKey;
    },
  });
  return { url: server.url, keys: keys as Required<Keys>, clock, skipped, close: () => server.close() };
}

/** The target's catalogs into serve, or a parity error saying they cannot be (nothing can be compared without them). */
function loadCatalogs(load: () => unknown): void {
  try {
    load();
  } catch (error) {
    const reason = escapeControls(error instanceof Error ? error.message : String(error));
    throw new CliError(`serve cannot load the target's catalogs, so nothing can be compared: ${reason}`, ExitCode.failed, "parity starts serve with the catalogs the target served; these break serve's catalog contract");
  }
}
