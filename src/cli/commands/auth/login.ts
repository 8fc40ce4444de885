import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, UsageError } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { readInputText } from '../../cmdutil/input.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { settingsFor } from '../../session/session.js';
import { openConfig } from '../../session/config.js';
import { parseSettingValue, redactKey } from '../config/support/settings.js';
import { ApiResponseError } from '../../../client/errors.js';

const verb = (parent: Parent) =>
  parent
    .command('login')
    .description('Check an API key against the service and save it in the profile (the file is readable only by you)')
    .option('--with-key-stdin', 'read the key from stdin instead of prompting')
    .addHelpText(
      'after',
      `
On a terminal the key is asked for without echo. The base URL the key was checked against
(--base-url, REPORTCTL_BASE_URL, the profile's or the default) is saved with it.

Examples:
  $ reportctl auth login
  $ reportctl auth login --base-url https://reports.example.com
  $ printenv REPORTCTL_KEY | reportctl auth login --with-key-stdin`,
    );
export type AuthLoginOptions = OptionsOf<typeof verb>;

export function registerAuthLogin(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AuthLoginOptions> = (options) => runAuthLogin(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

async function readKey(options: AuthLoginOptions, deps: CliDeps, baseUrl: string): Promise<string> {
  if (options.withKeyStdin) {
    const key = (await readInputText('-', deps, '--with-key-stdin')).trim();
    if (key === '') throw new UsageError('--with-key-stdin: no key on stdin');
    return key;
  }
  if (!deps.io.canPrompt(options.input === false)) {
    throw new UsageError('cannot prompt for the API key here (no terminal, --no-input or CI)', 'pipe the key in with --with-key-stdin');
  }
  const key = await deps.prompter.password({
    message: `API key for ${baseUrl}`,
    validate: (value) => value.trim() !== '' || 'paste the key (it is not shown)',
  });
  return key.trim();
}

export async function runAuthLogin(options: AuthLoginOptions, deps: CliDeps): Promise<void> {
  // Logging in to a profile not in the file yet creates it.
  const before = await settingsFor(options, deps, true);
  // Whether anything answers there, before the key is asked for: a key typed for nothing is
  // wasted. Without a key the service answers 401, which is enough; a network failure stops here.
  const probe = await deps.api({ ...options, apiKey: '' }, { newProfile: true, retries: false });
  try {
    await probe.api.templates.list({ limit: 1 });
  } catch (error) {
    if (!(error instanceof ApiResponseError)) throw error;
  } finally {
    deps.io.progress.stop();
  }
  const key = parseSettingValue('api-key', await readKey(options, deps, before.baseUrl));
  // The key is checked before anything is saved: a key the service rejects is never stored.
  const session = await deps.api({ ...options, apiKey: key }, { newProfile: true });
  try {
    await session.api.templates.list({ limit: 1 });
  } catch (error) {
    if (error instanceof ApiResponseError && error.status === 401) {
      throw new CliError(`the service at ${session.settings.baseUrl} rejected this key (${error.code}); nothing was saved`, ExitCode.auth);
    }
    throw error;
  } finally {
    deps.io.progress.stop();
  }
  const config = await openConfig(deps.env);
  const current = config.read();
  const name = session.settings.profileName;
  // The key is saved with the base URL it was checked against, wherever that came from: the
  // next command, in a shell without the flag or the variable, goes to the same service.
  const profile = { ...(current.profiles?.[name] ?? {}), apiKey: key, baseUrl: session.settings.baseUrl };
  config.write({ ...current, profiles: { ...(current.profiles ?? {}), [name]: profile } });
  writeLine(deps.io.stderr, `logged in to ${session.settings.baseUrl}: key ${redactKey(key)} saved in profile ${name} (${config.path})`);
  if (deps.env.REPORTCTL_API_KEY && deps.env.REPORTCTL_API_KEY !== key) {
    writeLine(deps.io.stderr, 'warning: REPORTCTL_API_KEY is set and overrides the key just saved; `unset REPORTCTL_API_KEY` to use the saved one');
  }
}
