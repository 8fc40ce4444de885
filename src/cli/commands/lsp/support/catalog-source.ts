import type { Catalogs } from '../../../../contract/index.js';
import { seedCatalogs } from '../../../../contract/default-catalogs.js';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { explainError } from '../../../cmdutil/explain.js';

/** Where the catalogs a document is checked against came from. */
export type CatalogOrigin = 'bundled' | 'cache' | 'service';

export interface CatalogStatus {
  origin: CatalogOrigin;
  /** The service they are (or would be) from; none offline. */
  baseUrl?: string;
  /** One line for the editor's log: where they came from, and why not from the service. */
  message: string;
}

/** The least time between two revalidations (a save asks again, as a command would). */
const REVALIDATE_EVERY_MS = 10_000;
/** How long one revalidation may wait for the service: typing never waits for it. */
const SERVICE_TIMEOUT_MS = 5_000;

/**
 * The catalogs documents are checked against. At first the bundled ones, so checking starts
 * at once; then, in the background, the cached ones for the profile's service and key, then
 * the service's (`cachedCatalogs`, revalidated as the CLI does). Each change of origin is
 * reported once, with the reason when the service could not be asked.
 */
export class CatalogSource {
  current: Catalogs = seedCatalogs;
  status: CatalogStatus = { origin: 'bundled', message: 'catalogs: the ones bundled with reportctl, until the service answers' };
  private lastAsked = Number.NEGATIVE_INFINITY;
  private asking: Promise<void> | undefined;

  constructor(
    private readonly options: GlobalOptions & { offline?: boolean | undefined },
    private readonly deps: CliDeps,
    private readonly changed: (status: CatalogStatus) => void,
  ) {}

  /** Asks again when the last time is long enough ago; never rejects, never blocks a caller. */
  revalidate(): Promise<void> {
    if (this.asking) return this.asking;
    if (this.options.offline) {
      if (this.lastAsked === Number.NEGATIVE_INFINITY) this.report('bundled', undefined, 'catalogs: the ones bundled with reportctl (--offline)');
      this.lastAsked = this.deps.clock.now();
      return Promise.resolve();
    }
    if (this.deps.clock.now() - this.lastAsked < REVALIDATE_EVERY_MS) return Promise.resolve();
    this.lastAsked = this.deps.clock.now();
    this.asking = this.ask().finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async ask(): Promise<void> {
    let baseUrl: string | undefined;
    try {
      const session = await this.deps.api(this.options, { timeoutMs: SERVICE_TIMEOUT_MS, retries: false });
      baseUrl = session.settings.baseUrl;
      const { cachedCatalogs, storedCatalogs } = await import('../../../session/catalog-cache.js');
      if (this.status.origin === 'bundled') {
        const stored = await storedCatalogs(session, this.deps.env);
        if (stored) this.use(stored, 'cache', baseUrl, `catalogs: the cached copy for ${baseUrl}, until the service answers`);
      }
      const fresh = await cachedCatalogs(session, this.deps);
      this.use(fresh, 'service', baseUrl, `catalogs: from the service at ${baseUrl}`);
    } catch (error) {
      const reason = explainError(error).message;
      const fallback = this.status.origin === 'bundled' ? 'the ones bundled with reportctl' : `the cached copy for ${baseUrl}`;
      this.report(this.status.origin === 'service' ? 'cache' : this.status.origin, baseUrl, `catalogs: ${fallback}; the service could not be asked: ${reason}`);
    }
  }

  private use(catalogs: Catalogs, origin: CatalogOrigin, baseUrl: string | undefined, message: string): void {
    const same = JSON.stringify(catalogs) === JSON.stringify(this.current);
    this.current = catalogs;
    if (!same || origin !== this.status.origin) this.report(origin, baseUrl, message, !same);
  }

  private report(origin: CatalogOrigin, baseUrl: string | undefined, message: string, force = false): void {
    if (!force && origin === this.status.origin && message === this.status.message) return;
    this.status = { origin, ...(baseUrl !== undefined ? { baseUrl } : {}), message };
    this.changed(this.status);
  }
}
