import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { openConfig, resolveSettings } from '../../session/config.js';
import { writeLine } from '../../iostreams/io.js';

const verb = (parent: Parent) =>
  parent
    .command('logout')
    .description('Remove the saved API key from the profile (the key itself stays valid at the service)')
    .addHelpText('after', '\nExamples:\n  $ reportctl auth logout\n  $ reportctl auth logout --profile staging');
export type AuthLogoutOptions = OptionsOf<typeof verb>;

export function registerAuthLogout(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AuthLogoutOptions> = (options) => runAuthLogout(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runAuthLogout(options: AuthLogoutOptions, deps: CliDeps): Promise<void> {
  const config = await openConfig(deps.env);
  const current = config.read();
  const name = resolveSettings(options, deps.env, current).profileName;
  const profile = current.profiles?.[name];
  if (profile?.apiKey === undefined) {
    writeLine(deps.io.stderr, `no key saved in profile ${name}; nothing to do`);
  } else {
    const { apiKey: _removed, ...rest } = profile;
    config.write({ ...current, profiles: { ...current.profiles, [name]: rest } });
    writeLine(deps.io.stderr, `removed the key from profile ${name}`);
  }
  if (deps.env.REPORTCTL_API_KEY) writeLine(deps.io.stderr, 'note: REPORTCTL_API_KEY is still set in the environment');
}
