import type { Command } from 'commander';
import type { CliDeps, GlobalOptions } from '../../context.js';
import type { Wrap } from '../../program.js';

export function registerConfigUse(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('use')
    .description('Make a profile the current one')
    .argument('<profile>', 'profile name')
    .addHelpText('after', '\nExamples:\n  $ reportctl config use staging\n  $ reportctl config use default')
    .action(wrap(async (profile: string, _o: unknown, command: Command) => runConfigUse(profile, command.optsWithGlobals<GlobalOptions>(), deps)));
}

export async function runConfigUse(profile: string, _options: GlobalOptions, deps: CliDeps): Promise<void> {
  const [{ openConfig }, { checkProfileName }, { writeLine }] = await Promise.all([
    import('../../config.js'),
    import('./settings.js'),
    import('../../io.js'),
  ]);
  const name = checkProfileName(profile);
  const config = await openConfig(deps.env);
  const current = config.read();
  config.write({ ...current, currentProfile: name });
  writeLine(deps.io.stderr, `now using profile ${name}`);
  if (!current.profiles?.[name]) writeLine(deps.io.stderr, `note: profile ${name} has no settings yet; add some with \`reportctl config set base-url URL\``);
  if (deps.env.REPORTCTL_PROFILE) writeLine(deps.io.stderr, `note: REPORTCTL_PROFILE=${deps.env.REPORTCTL_PROFILE} is set and takes precedence`);
}
