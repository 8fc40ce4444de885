import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { knownProfiles, noProfileError, openConfig } from '../../session/config.js';
import { checkProfileName } from './support/settings.js';
import { writeLine } from '../../iostreams/io.js';

const verb = (parent: Parent) =>
  parent
    .command('use')
    .description('Make a profile the current one')
    .argument('<profile>', 'profile name')
    .option('--create', 'start a new, empty profile of that name')
    .addHelpText('after', '\nExamples:\n  $ reportctl config use staging\n  $ reportctl config use default\n  $ reportctl config use --create staging');
export type ConfigUseOptions = OptionsOf<typeof verb>;

export function registerConfigUse(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<ConfigUseOptions, [profile: string]> = (options, profile) => runConfigUse(profile, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runConfigUse(profile: string, options: ConfigUseOptions, deps: CliDeps): Promise<void> {
  const name = checkProfileName(profile);
  const config = await openConfig(deps.env);
  const current = config.read();
  const known = knownProfiles(current);
  // A typo must not silently switch to an empty profile.
  if (!known.includes(name) && !options.create) throw noProfileError(name, known);
  config.write({ ...current, currentProfile: name, profiles: { ...current.profiles, [name]: current.profiles?.[name] ?? {} } });
  writeLine(deps.io.stderr, `now using profile ${name}`);
  if (!current.profiles?.[name]) writeLine(deps.io.stderr, `note: profile ${name} has no settings yet; add some with \`reportctl config set base-url URL\``);
  if (deps.env.REPORTCTL_PROFILE) writeLine(deps.io.stderr, `note: REPORTCTL_PROFILE=${deps.env.REPORTCTL_PROFILE} is set and takes precedence`);
}
