import type { CliDeps } from '../../cmdutil/context.js';
import { printJson, printTable, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';

const verb = (parent: Parent) =>
  parent
    .command('statistics')
    .description('Statistic keys per analysis type (what `selectedStatistics` may hold)')
    .addHelpText('after', '\nExamples:\n  $ reportctl catalogs statistics\n  $ reportctl catalogs statistics --json | jq -r .counting[]');
export type CatalogsStatisticsOptions = OptionsOf<typeof verb>;

export function registerCatalogsStatistics(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<CatalogsStatisticsOptions> = (options) => runCatalogsStatistics(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

interface StatisticRow {
  analysisType: string;
  statistic: string;
}

export async function runCatalogsStatistics(options: CatalogsStatisticsOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const catalog = await session.api.catalogs.statistics();
  deps.io.progress.stop();
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
  await printTable(deps, await deps.io.style(options.color), columns, rows);
}
