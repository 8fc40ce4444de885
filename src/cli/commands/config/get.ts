import { Argument } from '../../cmdutil/typed-commander.js';
import { profileKeyNotes, profileKeys, type ProfileKey, readConfig } from '../../session/config.js';
import { describeChoices } from '../../cmdutil/choice-notes.js';
import { choiceParser } from '../../output/list-options.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode } from '../../cmdutil/errors.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { describeSettings } from './support/settings.js';
import { writeLine } from '../../iostreams/io.js';

const verb = (parent: Parent) =>
  parent
    .command('get')
    .description('Print the effective value of a setting (flag > environment > profile > default)')
    .addArgument(describeChoices(new Argument('<key>', 'the setting').choices(profileKeys).argParser(choiceParser(profileKeys)), profileKeyNotes))
    .option('--reveal', 'print the whole api-key instead of its first characters')
    .addHelpText('after', '\nExamples:\n  $ reportctl config get base-url\n  $ reportctl config get api-key --json');
export type ConfigGetOptions = OptionsOf<typeof verb>;

export function registerConfigGet(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<ConfigGetOptions, [key: ProfileKey]> = (options, key) => runConfigGet(key, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runConfigGet(key: ProfileKey, options: ConfigGetOptions, deps: CliDeps): Promise<void> {
  const config = readConfig(deps.env);
  const row = describeSettings(options, deps.env, config.config, options.reveal === true).find((setting) => setting.key === key)!;
  if (options.json) return writeLine(deps.io.stdout, JSON.stringify({ key, value: row.value ?? null, source: row.source }));
  if (row.value === undefined) throw new CliError(`${key} is not set`, ExitCode.failed, key === 'api-key' ? 'run `reportctl auth login`' : undefined);
  writeLine(deps.io.stdout, row.value);
}
