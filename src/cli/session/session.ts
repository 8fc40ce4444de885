import { keyForAnotherService, readConfig, resolveSettings, unknownProfile, type ConfigShape } from './config.js';
import type { ApiTuning, CliDeps, GlobalOptions, Session, Settings } from '../cmdutil/context.js';
import { UsageError } from '../cmdutil/errors.js';
import { normaliseBaseUrl } from './base-url.js';
import { writeLine } from '../iostreams/io.js';
import { escapeControls } from '../iostreams/sanitize.js';
import { serviceApi } from '../../client/api.js';

export type { Session } from '../cmdutil/context.js';

/** The settings a command runs with; a profile named but not in the file is a usage error. */
export async function settingsFor(options: GlobalOptions, deps: CliDeps, newProfile = false): Promise<Settings> {
  return (await settingsAndConfig(options, deps, newProfile)).settings;
}

async function settingsAndConfig(options: GlobalOptions, deps: CliDeps, newProfile: boolean): Promise<{ settings: Settings; config: ConfigShape }> {
  const { config } = readConfig(deps.env);
  const missing = newProfile ? undefined : unknownProfile(options, deps.env, config);
  if (missing) throw missing;
  return { settings: resolveSettings(options, deps.env, config), config };
}

/** What `CliDeps.api` is outside tests: the configured client. */
export async function connect(options: GlobalOptions, deps: CliDeps, tuning: ApiTuning = {}): Promise<Session> {
  const { settings: configured, config } = await settingsAndConfig(options, deps, tuning.newProfile === true);
  const baseUrl = normaliseBaseUrl(configured.baseUrl, configured.sources.baseUrl);
  for (const note of baseUrl.notes) writeLine(deps.io.stderr, note);
  const elsewhere = keyForAnotherService(configured, config, baseUrl.url);
  if (elsewhere) throw elsewhere;
  const settings = { ...configured, baseUrl: baseUrl.url };
  const { ApiClient } = await import('../../client/http.js');
  const tty = deps.io.isStderrTTY();
  const timeoutMs = tuning.timeoutMs ?? timeoutFrom(deps.env);
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
    keyHeader: settings.keyHeader,
    sleep: deps.clock.sleep,
    now: deps.clock.now,
    signal: tuning.signal ?? deps.signal,
    ...(tuning.retries === false ? { maxTransientRetries: 0, maxRateLimitRetries: 0 } : {}),
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
    userAgent: 'reportctl',
    keySource: settings.sources.apiKey,
    baseUrlSource: settings.sources.baseUrl,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(tuning.maxResponseBytes !== undefined ? { maxResponseBytes: tuning.maxResponseBytes } : {}),
    // Response headers are the service's text.
    ...(options.verbose ? { trace: (line: string) => writeLine(deps.io.stderr, escapeControls(line)) } : {}),
    onWait: (reason, ms, cause) => {
      // On a terminal the spinner counts it down. Piped, a rate-limit wait is said (it may last
      // a minute and must not look like a hang); quick retries only with --verbose, so a
      // failure stays one line.
      if (tty) deps.io.progress.countdown(reason, ms, deps.clock);
      else if (cause === 'rate-limit' || options.verbose) writeLine(deps.io.stderr, `reportctl: ${reason(ms)}`);
    },
  });
  return { settings, api: serviceApi(client) };
}

/** REPORTCTL_TIMEOUT_MS: how long to wait for an answer (default 30 s); tests make it short. */
function timeoutFrom(env: CliDeps['env']): number | undefined {
  const text = env.REPORTCTL_TIMEOUT_MS;
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1) throw new UsageError(`REPORTCTL_TIMEOUT_MS must be a whole number of milliseconds, got \`${text}\``);
  return ms;
}
