import type { Command } from 'commander';
import { stat } from 'node:fs/promises';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { colorEnabled, isStdoutTTY, writeLine } from '../../io.js';
import type { Wrap } from '../../program.js';
import { loadStyle } from '../../style.js';
import { maintainedLtsMajors, pastEndOfLife } from './node-releases.js';

export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const MIN_NODE = [20, 18, 1] as const;
const MAX_SKEW_SECONDS = 30;

export function registerDoctor(program: Command, deps: CliDeps, wrap: Wrap): void {
  program
    .command('doctor')
    .description('Check Node.js, the config file, the service, the key and the clock, and say what to fix')
    .addHelpText('after', '\nExamples:\n  $ reportctl doctor\n  $ reportctl doctor --json\n\nExit status: 0 when nothing failed (warnings allowed), 1 otherwise.')
    .action(wrap(async (_o: unknown, command: Command) => runDoctor(command.optsWithGlobals<GlobalOptions>(), deps)));
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

export async function runDoctor(options: GlobalOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const checks: DoctorCheck[] = [nodeVersionCheck(deps.nodeVersion, deps.clock.now())];
  const [{ openConfig, resolveSettings }, { ApiClient }, { ApiResponseError, NetworkError }] = await Promise.all([
    import('../../config.js'),
    import('../../../client/http.js'),
    import('../../../client/errors.js'),
  ]);

  const config = await openConfig(deps.env);
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

  const settings = resolveSettings(options, deps.env, config.read());
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
    keyHeader: settings.keyHeader,
    timeoutMs: 5000,
    maxTransientRetries: 0,
    maxRateLimitRetries: 0,
    sleep: deps.clock.sleep,
    now: deps.clock.now,
    signal: deps.signal,
  });

  let reachable = false;
  try {
    const sentAt = deps.clock.now();
    const result = await client.request('GET', '/api/v2/templates', { query: { limit: 1 } }).catch((error: unknown) => {
      if (error instanceof ApiResponseError) return { status: error.status, headers: {} as Record<string, string>, error };
      throw error;
    });
    reachable = true;
    checks.push({ name: 'service', status: 'ok', detail: `${settings.baseUrl} answered (${deps.clock.now() - sentAt} ms; from ${settings.sources.baseUrl})` });
    if (settings.apiKey === undefined) {
      checks.push({ name: 'api key', status: 'fail', detail: 'no key set', fix: 'run `reportctl auth login`, or set REPORTCTL_API_KEY' });
    } else if (result.status === 401) {
      checks.push({ name: 'api key', status: 'fail', detail: `the service refused the key from ${settings.sources.apiKey}`, fix: 'get a new key and run `reportctl auth login`' });
    } else if (result.status < 400 || result.status === 429) {
      checks.push({ name: 'api key', status: 'ok', detail: `accepted (from ${settings.sources.apiKey})` });
    } else {
      checks.push({ name: 'api key', status: 'warn', detail: `could not check the key: the service answered ${result.status}` });
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
    const style = await loadStyle(colorEnabled(deps.io, deps.env, options.color));
    const tty = isStdoutTTY(deps.io);
    const mark = { ok: tty ? style.green('✓') : 'ok  ', warn: tty ? style.yellow('!') : 'warn', fail: tty ? style.red('✗') : 'FAIL' };
    for (const check of checks) {
      writeLine(deps.io.stdout, `${mark[check.status]} ${check.name}: ${check.detail}`);
      if (check.fix) writeLine(deps.io.stdout, `    fix: ${check.fix}`);
    }
  }
  return checks.some((check) => check.status === 'fail') ? ExitCode.failed : ExitCode.ok;
}
