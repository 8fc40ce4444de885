import type { CliDeps, Session } from '../../cmdutil/context.js';
import { ExitCode, SilentFailure, type ExitCodeValue } from '../../cmdutil/errors.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { redactKey } from '../config/support/settings.js';
import { ApiResponseError, NetworkError } from '../../../client/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { printFields } from '../../output/output.js';
import type { Style } from '../../iostreams/style.js';

const verb = (parent: Parent) =>
  parent
    .command('status')
    .description('Show the base URL, profile and key in use, and check the key against the service')
    .addHelpText(
      'after',
      `
Exit status: 0 the key works, 3 no key or the service rejects it, 6 the service cannot be reached.

Examples:
  $ reportctl auth status
  $ reportctl auth status --json`,
    );
export type AuthStatusOptions = OptionsOf<typeof verb>;

export function registerAuthStatus(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AuthStatusOptions> = (options) => runAuthStatus(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

type KeyState = 'valid' | 'missing' | 'rejected' | 'unreachable';

export async function runAuthStatus(options: AuthStatusOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const session = await deps.api(options);
  const { state, detail } = await checkKey(session, deps);
  // People read the status and these lines; scripts read the status and the JSON failure line.
  if (!options.json && state === 'missing') writeLine(deps.io.stderr, 'hint: set a key with `reportctl auth login`, REPORTCTL_API_KEY, or --api-key');
  if (!options.json && state === 'unreachable') writeLine(deps.io.stderr, `reportctl: ${escapeControls(detail)}`);
  if (options.json) writeStatusJson(session.settings, state, detail, deps);
  else printStatus(session.settings, await deps.io.style(options.color), state, detail, deps);
  const failure = failureFor(state, detail);
  if (failure) throw failure;
  return ExitCode.ok;
}

/** One cheap list call: a 401 says the key is refused, a network error that nothing was checked. */
async function checkKey(session: Session, deps: CliDeps): Promise<{ state: KeyState; detail: string }> {
  if (session.settings.apiKey === undefined) return { state: 'missing', detail: 'no API key' };
  try {
    await session.api.templates.list({ limit: 1 });
    return { state: 'valid', detail: '' };
  } catch (error) {
    if (error instanceof ApiResponseError && error.status === 401) return { state: 'rejected', detail: `${error.code}: ${error.message}` };
    if (error instanceof NetworkError) return { state: 'unreachable', detail: error.message };
    throw error;
  } finally {
    deps.io.progress.stop();
  }
}

function failureFor(state: KeyState, detail: string): SilentFailure | undefined {
  switch (state) {
    case 'valid':
      return undefined;
    case 'missing':
      return new SilentFailure(ExitCode.auth, 'no API key is set', { code: 'API_KEY_MISSING', hints: ['set a key with `reportctl auth login`, REPORTCTL_API_KEY, or --api-key'] });
    case 'rejected':
      return new SilentFailure(ExitCode.auth, `the service rejected the key: ${detail}`, { code: 'API_KEY_INVALID' });
    case 'unreachable':
      return new SilentFailure(ExitCode.network, detail || 'the service cannot be reached', { code: 'NETWORK_ERROR' });
  }
}

function writeStatusJson(settings: Session['settings'], state: KeyState, detail: string, deps: CliDeps): void {
  writeLine(
    deps.io.stdout,
    JSON.stringify({
      profile: settings.profileName,
      baseUrl: settings.baseUrl,
      baseUrlSource: settings.sources.baseUrl,
      apiKey: settings.apiKey === undefined ? null : redactKey(settings.apiKey),
      apiKeySource: settings.sources.apiKey,
      keyHeader: settings.keyHeader,
      status: state,
      ...(detail ? { message: detail } : {}),
    }),
  );
}

function printStatus(settings: Session['settings'], style: Style, state: KeyState, detail: string, deps: CliDeps): void {
  const verdict: Record<KeyState, [string, (text: string) => string]> = {
    valid: ['accepted by the service', style.green],
    missing: ['none', style.red],
    rejected: [`rejected (${detail})`, style.red],
    unreachable: ['not checked: the service cannot be reached', style.red],
  };
  printFields(deps, style, [
    ['profile', settings.profileName],
    ['base URL', [[settings.baseUrl], [` (${settings.sources.baseUrl})`, style.dim]]],
    ['key', settings.apiKey === undefined ? '-' : [[redactKey(settings.apiKey)], [` (${settings.sources.apiKey}, header ${settings.keyHeader})`, style.dim]]],
    ['status', [verdict[state]]],
  ]);
}
