import type { CliDeps } from '../../context.js';
import type { Wrap } from '../../action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../verb.js';
import { UsageError } from '../../errors.js';
import { openConfig } from '../../config.js';
import { checkProfileName } from './support/settings.js';
import { writeLine } from '../../io.js';
import { closestMatch } from '../../suggest.js';

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
  const known = [...new Set(['default', ...Object.keys(current.profiles ?? {})])];
  if (!known.includes(name) && !options.create) {
    // A typo must not silently switch to an empty profile.
    const guess = closestMatch(name, known);
    throw new UsageError(`no profile ${name}${guess ? `; did you mean ${guess}?` : ''}`, `profiles: ${known.join(', ')}; \`reportctl config use --create ${name}\` starts a new one`);
  }
  config.write({ ...current, currentProfile: name, profiles: { ...current.profiles, [name]: current.profiles?.[name] ?? {} } });
  writeLine(deps.io.stderr, `now using profile ${name}`);
  if (!current.profiles?.[name]) writeLine(deps.io.stderr, `note: profile ${name} has no settings yet; add some with \`reportctl config set base-url URL\``);
  if (deps.env.REPORTCTL_PROFILE) writeLine(deps.io.stderr, `note: REPORTCTL_PROFILE=${deps.env.REPORTCTL_PROFILE} is set and takes precedence`);
}
