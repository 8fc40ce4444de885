import type { ReportTypeEntry } from '../../../contract/index.js';
import { analysisTypeNotes, analysisTypes } from '../../../contract/vocabulary.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { choiceOption } from '../../output/list-options.js';
import { printJson, printTable, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';

const verb = (parent: Parent) =>
  parent
    .command('report-types')
    .description('Report types per analysis type (the valid `reportType` keys and their ids)')
    .addOption(choiceOption('--analysis-type <type>', 'only this analysis type', analysisTypes, analysisTypeNotes))
    .addHelpText(
      'after',
      `
Labels are shown in the profile's language (\`reportctl config set language es\`).

Examples:
  $ reportctl catalogs report-types
  $ reportctl catalogs report-types --analysis-type counting --json`,
    );
export type CatalogsReportTypesOptions = OptionsOf<typeof verb>;

export function registerCatalogsReportTypes(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<CatalogsReportTypesOptions> = (options) => runCatalogsReportTypes(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

interface ReportTypeRow {
  analysisType: string;
  entry: ReportTypeEntry;
}

export async function runCatalogsReportTypes(options: CatalogsReportTypesOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const catalog = await session.api.catalogs.reportTypes();
  deps.io.progress.stop();
  if (options.json) return printJson(deps, options.analysisType ? catalog[options.analysisType] : catalog);
  const language = session.settings.language;
  const rows: ReportTypeRow[] = [];
  // The real service may list analysis types this client does not know yet: show them too.
  for (const [analysisType, entries] of Object.entries(catalog)) {
    if (options.analysisType !== undefined && analysisType !== options.analysisType) continue;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as ReportTypeEntry[]) rows.push({ analysisType, entry });
  }
  const columns: Column<ReportTypeRow>[] = [
    { header: 'ANALYSIS', value: (row) => row.analysisType },
    { header: 'KEY', value: (row) => row.entry.key, color: (text, _row, style) => style.cyan(text) },
    { header: 'LABEL', value: (row) => row.entry.label[language] ?? row.entry.label.en },
    { header: 'CATEGORY', value: (row) => row.entry.reportCategory },
    { header: 'ID', keep: true, value: (row) => row.entry.id, color: (text, _row, style) => style.dim(text) },
  ];
  await printTable(deps, await deps.io.style(options.color), columns, rows);
}
