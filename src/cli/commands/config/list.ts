import type { CliDeps } from '../../cmdutil/context.js';
import { printJson, printTable, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { readConfig } from '../../session/config.js';
import { describeSettings } from './support/settings.js';

interface Row {
  key: string;
  value: string | undefined;
  source: string;
}

const verb = (parent: Parent) =>
  parent
    .command('list')
    .alias('ls')
    .description('Show the effective settings and where each comes from (the key redacted)')
    .addHelpText('after', '\nExamples:\n  $ reportctl config list\n  $ REPORTCTL_PROFILE=staging reportctl config list --json');
export type ConfigListOptions = OptionsOf<typeof verb>;

export function registerConfigList(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<ConfigListOptions> = (options) => runConfigList(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runConfigList(options: ConfigListOptions, deps: CliDeps): Promise<void> {
  const config = readConfig(deps.env);
  const stored = config.config;
  const rows = describeSettings(options, deps.env, stored);
  const profiles = Object.keys(stored.profiles ?? {});
  if (options.json) {
    const settings = Object.fromEntries(rows.map((row) => [row.key, { value: row.value ?? null, source: row.source }]));
    return printJson(deps, { configFile: config.path, profiles, settings });
  }
  const style = await deps.io.style(options.color);
  const columns: Column<Row>[] = [
    { header: 'KEY', value: (row) => row.key, color: (text, _row, s) => s.bold(text) },
    { header: 'VALUE', value: (row) => row.value ?? '-' },
    { header: 'SOURCE', value: (row) => row.source, color: (text, _row, s) => s.dim(text) },
  ];
  const extra: Row[] = [
    { key: 'profiles', value: profiles.join(', ') || '-', source: 'config file' },
    { key: 'config-file', value: config.path, source: '-' },
  ];
  await printTable(deps, style, columns, [...rows, ...extra]);
}
