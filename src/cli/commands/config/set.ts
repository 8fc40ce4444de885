import { Argument } from '../../cmdutil/typed-commander.js';
import { profileField, profileKeyNotes, profileKeys, type ProfileKey, openConfig, resolveSettings } from '../../session/config.js';
import { describeChoices } from '../../cmdutil/choice-notes.js';
import { choiceParser } from '../../output/list-options.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { parseSettingValue, redactKey, checkProfileName } from './support/settings.js';
import { writeLine } from '../../iostreams/io.js';

const environmentOverrides: Partial<Record<ProfileKey, string>> = { 'base-url': 'REPORTCTL_BASE_URL', 'api-key': 'REPORTCTL_API_KEY' };

const verb = (parent: Parent) =>
  parent
    .command('set')
    .description('Save a setting in a profile (the current one, or --profile NAME)')
    .addArgument(describeChoices(new Argument('<key>', 'the setting').choices(profileKeys).argParser(choiceParser(profileKeys)), profileKeyNotes))
    .argument('<value>', 'its value')
    .addHelpText(
      'after',
      `
Keys:
  base-url     the service, an http(s) URL
  api-key      the key (prefer \`reportctl auth login\`, which checks it and does not echo it)
  key-header   how the key travels: apiKey, X-API-Key or Authorization (Bearer)
  language     labels in en or es

Examples:
  $ reportctl config set base-url https://reports.example.com
  $ reportctl config set language es --profile staging`,
    );
export type ConfigSetOptions = OptionsOf<typeof verb>;

export function registerConfigSet(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<ConfigSetOptions, [key: ProfileKey, value: string]> = (options, key, value) => runConfigSet(key, value, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runConfigSet(key: ProfileKey, rawValue: string, options: ConfigSetOptions, deps: CliDeps): Promise<void> {
  const value = parseSettingValue(key, rawValue);
  const config = await openConfig(deps.env);
  const current = config.read();
  const name = checkProfileName(resolveSettings(options, deps.env, current).profileName);
  const profile = { ...(current.profiles?.[name] ?? {}), [profileField[key]]: value };
  config.write({ ...current, profiles: { ...(current.profiles ?? {}), [name]: profile } });
  writeLine(deps.io.stderr, `${key} = ${key === 'api-key' ? redactKey(value) : value} saved in profile ${name} (${config.path})`);
  const overriding = environmentOverrides[key];
  if (overriding && deps.env[overriding]) writeLine(deps.io.stderr, `note: ${overriding} is set and takes precedence over the profile`);
}
