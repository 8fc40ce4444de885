import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CliDeps, Session } from '../../cmdutil/context.js';
import { ExitCode, SilentFailure, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';
import { keyHint } from '../../cmdutil/explain.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { maintainedLtsMajors, pastEndOfLife } from './support/node-releases.js';
import { readConfig, unknownProfile, type ConfigShape } from '../../session/config.js';
import { ApiResponseError, NetworkError } from '../../../client/errors.js';

export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const MIN_NODE = [20, 18, 1] as const;
const MAX_SKEW_SECONDS = 30;

const verb = (program: Root) =>
  program
    .command('doctor')
    .description('Check Node.js, the config file, the service, the key and the clock, and say what to fix')
    .addHelpText('after', '\nExamples:\n  $ reportctl doctor\n  $ reportctl doctor --json\n\nExit status: 0 when nothing failed (warnings allowed), 1 otherwise.');
export type DoctorOptions = OptionsOf<typeof verb>;

export function registerDoctor(
  program: Root,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<DoctorOptions> = (options) => runDoctor(options, deps),
): void {
  bindRun(verb(program), wrap, runF);
}

/** Fails below the minimum; warns on a line past its end of life, which still works but gets no security fixes. */
export function nodeVersionCheck(version: string | undefined, now: number): DoctorCheck {
  if (!version) return { name: 'node', status: 'warn', detail: 'version unknown' };
  const parts = version.replace(/^v/, '').split('.').map(Number);
  const tooOld = MIN_NODE.some((minimum, index) => {
    const earlier = MIN_NODE.slice(0, index).every((value, j) => parts[j] === value);
    return earlier && (parts[index] ?? 0) < minimum;
  });
  if (tooOld) {
    return { name: 'node', status: 'fail', detail: `Node.js ${version} is older than ${MIN_NODE.join('.')}`, fix: 'install Node.js 20.18.1 or newer (22 and 24 work too)' };
  }
  const endOfLife = pastEndOfLife(parts[0]!, now);
  if (endOfLife === null) return { name: 'node', status: 'ok', detail: `Node.js ${version}` };
  const maintained = maintainedLtsMajors(now);
  return {
    name: 'node',
    status: 'warn',
    detail: `Node.js ${version} is past its end of life (${endOfLife}): it gets no more security fixes`,
    ...(maintained.length > 0 ? { fix: `install Node.js ${maintained.join(', ').replace(/, (\d+)$/, ' or $1')} (maintained LTS)` } : {}),
  };
}

export async function runDoctor(options: DoctorOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const checks: DoctorCheck[] = [nodeVersionCheck(deps.nodeVersion, deps.clock.now())];
  const config = readConfig(deps.env);
  checks.push(await configFileCheck(config.path));
  const folderCheck = await configFolderCheck(dirname(config.path));
  if (folderCheck) checks.push(folderCheck);
  const missing = unknownProfile(options, deps.env, config.config);
  if (missing) checks.push({ name: 'profile', status: 'fail', detail: `${missing.message}; the checks below use the defaults`, ...(missing.hint ? { fix: missing.hint } : {}) });
  // One quick attempt: doctor says what is wrong rather than waiting it out.
  const session = await deps.api(options, { timeoutMs: 5000, retries: false, newProfile: true });
  const keySource = keySourceCheck(session.settings, config.config);
  if (keySource) checks.push(keySource);
  checks.push(...(await serviceChecks(session, deps.clock)));
  await report(checks, options, deps);
  const failed = checks.filter((check) => check.status === 'fail').map((check) => check.name);
  if (failed.length > 0) throw new SilentFailure(ExitCode.failed, `failed: ${failed.join(', ')}`, { code: 'DOCTOR_FAILED' });
  return ExitCode.ok;
}

/** The file holds keys: readable by others is a failure. */
async function configFileCheck(path: string): Promise<DoctorCheck> {
  try {
    const mode = (await stat(path)).mode & 0o777;
    return mode & 0o077
      ? { name: 'config file', status: 'fail', detail: `${path} is readable by others (mode ${mode.toString(8)}); it holds keys`, fix: `chmod 600 ${path}` }
      : { name: 'config file', status: 'ok', detail: `${path} (mode 600)` };
  } catch {
    return { name: 'config file', status: 'ok', detail: `none yet (${path}); \`reportctl auth login\` creates it` };
  }
}

/** A key in the environment silently wins over the saved one: said, so a stale export is found. */
function keySourceCheck(settings: Session['settings'], stored: ConfigShape): DoctorCheck | undefined {
  if (settings.sources.apiKey !== 'env REPORTCTL_API_KEY' || stored.profiles?.[settings.profileName]?.apiKey === undefined) return undefined;
  return {
    name: 'key source',
    status: 'warn',
    detail: `REPORTCTL_API_KEY is set and overrides the key saved in profile ${settings.profileName}`,
    fix: '`unset REPORTCTL_API_KEY` to use the saved key',
  };
}

/** One request answers three checks: the service, the key and the clock. */
async function serviceChecks(session: Session, clock: CliDeps['clock']): Promise<DoctorCheck[]> {
  const { settings } = session;
  const sentAt = clock.now();
  let result;
  try {
    result = await session.api.client.request('GET', '/api/v2/templates', { query: { limit: 1 } }).catch((error: unknown) => {
      if (error instanceof ApiResponseError) return { status: error.status, headers: {} as Record<string, string>, error };
      throw error;
    });
  } catch (error) {
    const detail = error instanceof NetworkError ? error.message : error instanceof Error ? error.message : String(error);
    return [
      { name: 'service', status: 'fail', detail, fix: `check --base-url / REPORTCTL_BASE_URL (now ${settings.baseUrl}); \`reportctl serve\` starts a local service` },
      { name: 'api key', status: 'warn', detail: 'not checked (service unreachable)' },
    ];
  }
  const checks: DoctorCheck[] = answersAsThisApi(result)
    ? [
        { name: 'service', status: 'ok', detail: `${settings.baseUrl} answered (${clock.now() - sentAt} ms; from ${settings.sources.baseUrl})` },
        apiKeyCheck(settings, result.status, 'error' in result ? result.error : undefined),
      ]
    : [
        {
          name: 'service',
          status: 'fail',
          detail: `${settings.baseUrl} answered ${result.status}, but not as the report templates API (from ${settings.sources.baseUrl})`,
          fix: 'check --base-url / REPORTCTL_BASE_URL: it is the root of the service, e.g. http://127.0.0.1:4747',
        },
        { name: 'api key', status: 'warn', detail: 'not checked (not this API)' },
      ];
  const clockCheck = clockSkewCheck(result.headers.date, clock.now());
  if (clockCheck) checks.push(clockCheck);
  return checks;
}

function apiKeyCheck(settings: Session['settings'], status: number, error: Error | undefined): DoctorCheck {
  if (settings.apiKey === undefined) return { name: 'api key', status: 'fail', detail: 'no key set', fix: 'run `reportctl auth login`, or set REPORTCTL_API_KEY' };
  if (status === 401) return { name: 'api key', status: 'fail', detail: `the service refused the key from ${settings.sources.apiKey}`, fix: keyHint(settings.sources.apiKey) };
  if (status >= 200 && status < 300) return { name: 'api key', status: 'ok', detail: `accepted (from ${settings.sources.apiKey})` };
  // Only a 2xx proves the key. A 429 may come before the key is looked at (unknown keys
  // are limited per address), and a redirect was not followed: the key was not checked.
  return { name: 'api key', status: 'fail', ...uncheckedKey(status, error) };
}

/** Against the service's Date header; none, no check. */
function clockSkewCheck(date: string | undefined, now: number): DoctorCheck | undefined {
  const serverDate = Date.parse(date ?? '');
  if (!Number.isFinite(serverDate)) return undefined;
  const skew = Math.round((now - serverDate) / 1000);
  return Math.abs(skew) > MAX_SKEW_SECONDS
    ? { name: 'clock', status: 'warn', detail: `this clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service`, fix: 'synchronise the clock (NTP); times and rate-limit resets will look wrong' }
    : { name: 'clock', status: 'ok', detail: `within ${Math.max(1, Math.abs(skew))} s of the service` };
}

async function report(checks: DoctorCheck[], options: DoctorOptions, deps: CliDeps): Promise<void> {
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify(checks));
    return;
  }
  // After --json's return: JSON never loads chalk.
  const style = await deps.io.style(options.color);
  const tty = deps.io.isStdoutTTY();
  const mark = { ok: tty ? style.green('✓') : 'ok  ', warn: tty ? style.yellow('!') : 'warn', fail: tty ? style.red('✗') : 'FAIL' };
  for (const check of checks) {
    // Details may quote the service (where a redirect points).
    writeLine(deps.io.stdout, `${mark[check.status]} ${check.name}: ${escapeControls(check.detail)}`);
    if (check.fix) writeLine(deps.io.stdout, `    fix: ${escapeControls(check.fix)}`);
  }
}

/**
 * Whoever can write to the config folder can replace the file: point the base URL elsewhere
 * and collect the key. Read access only lists it (the file itself is 0600): a warning.
 */
async function configFolderCheck(folder: string): Promise<DoctorCheck | undefined> {
  let mode: number;
  try {
    mode = (await stat(folder)).mode & 0o777;
  } catch {
    return undefined;
  }
  const fix = `chmod 700 ${folder}`;
  if (mode & 0o022) {
    return { name: 'config folder', status: 'fail', detail: `${folder} can be written to by other users (mode ${mode.toString(8)}): they could replace the config file`, fix };
  }
  if (mode & 0o055) return { name: 'config folder', status: 'warn', detail: `${folder} can be read by other users (mode ${mode.toString(8)})`, fix };
  return { name: 'config folder', status: 'ok', detail: `${folder} (mode 700)` };
}

/**
 * Whether an answer came from this API and not from some other web server at that address:
 * a list envelope, or an error in the service's own JSON shape (not a bare HTTP status).
 */
function answersAsThisApi(result: { status: number; body?: unknown; error?: { code: string } }): boolean {
  // A redirect says nothing either way; the key check explains it.
  if (result.status >= 300 && result.status < 400) return true;
  if (result.error) return !result.error.code.startsWith('HTTP_');
  const body = result.body as { data?: unknown; total?: unknown } | null | undefined;
  return typeof body === 'object' && body !== null && Array.isArray(body.data) && typeof body.total === 'number';
}

/** Why the key could not be checked, and what to do about it. */
function uncheckedKey(status: number, error: Error | undefined): Pick<DoctorCheck, 'detail' | 'fix'> {
  if (status === 429) {
    const wait = error && 'retryAfterSeconds' in error ? ` (it asks to wait ${String(error.retryAfterSeconds)} s)` : '';
    return { detail: `not checked: the service is rate limiting requests${wait}`, fix: 'run `reportctl doctor` again later' };
  }
  if (status >= 300 && status < 400) {
    return { detail: `not checked: ${error?.message ?? `the service answered ${status}`}`, fix: 'if the service has moved and you trust the new address, set it with --base-url' };
  }
  return { detail: `not checked: the service answered ${status}` };
}
