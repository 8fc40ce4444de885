import type { Command } from 'commander';
import type { CliDeps, GlobalOptions } from '../../context.js';
import type { Column } from '../../output.js';
import type { Wrap } from '../../action.js';

export function registerCatalogsStatistics(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('statistics')
    .description('Statistic keys per analysis type (what `selectedStatistics` may hold)')
    .addHelpText('after', '\nExamples:\n  $ reportctl catalogs statistics\n  $ reportctl catalogs statistics --json | jq -r .counting[]')
    .action(wrap(async (_o: unknown, command: Command) => runCatalogsStatistics(command.optsWithGlobals<GlobalOptions>(), deps)));
}

interface StatisticRow {
  analysisType: string;
  statistic: string;
}

export async function runCatalogsStatistics(options: GlobalOptions, deps: CliDeps): Promise<void> {
  const [{ printJson, printTable }] = await Promise.all([import('../../output.js')]);
  const session = await deps.api(options);
  const catalog = await session.api.catalogs.statistics();
  session.progress.stop();
  if (options.json) return printJson(deps, catalog);
  const rows: StatisticRow[] = [];
  for (const [analysisType, statistics] of Object.entries(catalog)) {
    if (!Array.isArray(statistics)) continue;
    for (const statistic of statistics as unknown[]) rows.push({ analysisType, statistic: String(statistic) });
  }
  const columns: Column<StatisticRow>[] = [
    { header: 'ANALYSIS', value: (row) => row.analysisType },
    { header: 'STATISTIC', value: (row) => row.statistic, color: (text, _row, style) => style.cyan(text) },
  ];
  await printTable(deps, session.style, columns, rows);
}
