import { Argument, type Command } from 'commander';
import { profileKeyNotes, profileKeys, type ProfileKey } from '../../config.js';
import { describeChoices } from '../../choice-notes.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Wrap } from '../../action.js';

export interface ConfigGetOptions extends GlobalOptions {
  reveal?: boolean;
}

export function registerConfigGet(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('get')
    .description('Print the effective value of a setting (flag > environment > profile > default)')
    .addArgument(describeChoices(new Argument('<key>', 'the setting').choices(profileKeys), profileKeyNotes))
    .option('--reveal', 'print the whole api-key instead of its first characters')
    .addHelpText('after', '\nExamples:\n  $ reportctl config get base-url\n  $ reportctl config get api-key --json')
    .action(wrap(async (key: ProfileKey, _o: unknown, command: Command) => runConfigGet(key, command.optsWithGlobals<ConfigGetOptions>(), deps)));
}

export async function runConfigGet(key: ProfileKey, options: ConfigGetOptions, deps: CliDeps): Promise<void> {
  const [{ readConfig }, { describeSettings }, { writeLine }] = await Promise.all([
    import('../../config.js'),
    import('./shared/settings.js'),
    import('../../io.js'),
  ]);
  const config = readConfig(deps.env);
  const row = describeSettings(options, deps.env, config.config, options.reveal === true).find((setting) => setting.key === key)!;
  if (options.json) return writeLine(deps.io.stdout, JSON.stringify({ key, value: row.value ?? null, source: row.source }));
  if (row.value === undefined) throw new CliError(`${key} is not set`, ExitCode.failed, key === 'api-key' ? 'run `reportctl auth login`' : undefined);
  writeLine(deps.io.stdout, row.value);
}
