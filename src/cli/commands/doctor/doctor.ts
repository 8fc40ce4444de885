import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CliDeps } from '../../context.js';
import { ExitCode, SilentFailure, type ExitCodeValue } from '../../errors.js';
import { isStdoutTTY, writeLine } from '../../io.js';
import type { Wrap } from '../../action.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../verb.js';
import { keyHint } from '../../explain.js';
import { escapeControls } from '../../sanitize.js';
import { maintainedLtsMajors, pastEndOfLife } from './support/node-releases.js';
import { readConfig, unknownProfile } from '../../config.js';
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
  try {
    const mode = (await stat(config.path)).mode & 0o777;
    checks.push(
      mode & 0o077
        ? { name: 'config file', status: 'fail', detail: `${config.path} is readable by others (mode ${mode.toString(8)}); it holds keys`, fix: `chmod 600 ${config.path}` }
        : { name: 'config file', status: 'ok', detail: `${config.path} (mode 600)` },
    );
  } catch {
    checks.push({ name: 'config file', status: 'ok', detail: `none yet (${config.path}); \`reportctl auth login\` creates it` });
  }
  const folderCheck = await configFolderCheck(dirname(config.path));
  if (folderCheck) checks.push(folderCheck);

  const stored = config.config;
  const missing = unknownProfile(options, deps.env, stored);
  if (missing) checks.push({ name: 'profile', status: 'fail', detail: `${missing.message}; the checks below use the defaults`, ...(missing.hint ? { fix: missing.hint } : {}) });
  // One quick attempt: doctor says what is wrong rather than waiting it out.
  const session = await deps.api(options, { timeoutMs: 5000, retries: false, newProfile: true });
  const { settings, style } = session;
  if (settings.sources.apiKey === 'env REPORTCTL_API_KEY' && stored.profiles?.[settings.profileName]?.apiKey !== undefined) {
    checks.push({
      name: 'key source',
      status: 'warn',
      detail: `REPORTCTL_API_KEY is set and overrides the key saved in profile ${settings.profileName}`,
      fix: '`unset REPORTCTL_API_KEY` to use the saved key',
    });
  }
  const client = session.api.client;

  let reachable = false;
  try {
    const sentAt = deps.clock.now();
    const result = await client.request('GET', '/api/v2/templates', { query: { limit: 1 } }).catch((error: unknown) => {
      if (error instanceof ApiResponseError) return { status: error.status, headers: {} as Record<string, string>, error };
      throw error;
    });
    reachable = true;
    if (!answersAsThisApi(result)) {
      checks.push({
        name: 'service',
        status: 'fail',
        detail: `${settings.baseUrl} answered ${result.status}, but not as the report templates API (from ${settings.sources.baseUrl})`,
        fix: 'check --base-url / REPORTCTL_BASE_URL: it is the root of the service, e.g. http://127.0.0.1:4747',
      });
      checks.push({ name: 'api key', status: 'warn', detail: 'not checked (not this API)' });
    } else {
      checks.push({ name: 'service', status: 'ok', detail: `${settings.baseUrl} answered (${deps.clock.now() - sentAt} ms; from ${settings.sources.baseUrl})` });
      if (settings.apiKey === undefined) {
        checks.push({ name: 'api key', status: 'fail', detail: 'no key set', fix: 'run `reportctl auth login`, or set REPORTCTL_API_KEY' });
      } else if (result.status === 401) {
        checks.push({ name: 'api key', status: 'fail', detail: `the service refused the key from ${settings.sources.apiKey}`, fix: keyHint(settings.sources.apiKey) });
      } else if (result.status >= 200 && result.status < 300) {
        checks.push({ name: 'api key', status: 'ok', detail: `accepted (from ${settings.sources.apiKey})` });
      } else {
        // Only a 2xx proves the key. A 429 may come before the key is looked at (unknown keys
        // are limited per address), and a redirect was not followed: the key was not checked.
        checks.push({ name: 'api key', status: 'fail', ...uncheckedKey(result.status, 'error' in result ? result.error : undefined) });
      }
    }
    const serverDate = Date.parse(result.headers.date ?? '');
    if (Number.isFinite(serverDate)) {
      const skew = Math.round((deps.clock.now() - serverDate) / 1000);
      checks.push(
        Math.abs(skew) > MAX_SKEW_SECONDS
          ? { name: 'clock', status: 'warn', detail: `this clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service`, fix: 'synchronise the clock (NTP); times and rate-limit resets will look wrong' }
          : { name: 'clock', status: 'ok', detail: `within ${Math.max(1, Math.abs(skew))} s of the service` },
      );
    }
  } catch (error) {
    const detail = error instanceof NetworkError ? error.message : error instanceof Error ? error.message : String(error);
    checks.push({ name: 'service', status: 'fail', detail, fix: `check --base-url / REPORTCTL_BASE_URL (now ${settings.baseUrl}); \`reportctl serve\` starts a local service` });
  }
  if (!reachable) checks.push({ name: 'api key', status: 'warn', detail: 'not checked (service unreachable)' });

  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify(checks));
  } else {
    const tty = isStdoutTTY(deps.io);
    const mark = { ok: tty ? style.green('✓') : 'ok  ', warn: tty ? style.yellow('!') : 'warn', fail: tty ? style.red('✗') : 'FAIL' };
    for (const check of checks) {
      // Details may quote the service (where a redirect points).
      writeLine(deps.io.stdout, `${mark[check.status]} ${check.name}: ${escapeControls(check.detail)}`);
      if (check.fix) writeLine(deps.io.stdout, `    fix: ${escapeControls(check.fix)}`);
    }
  }
  const failed = checks.filter((check) => check.status === 'fail').map((check) => check.name);
  if (failed.length > 0) throw new SilentFailure(ExitCode.failed, `failed: ${failed.join(', ')}`, { code: 'DOCTOR_FAILED' });
  return ExitCode.ok;
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
