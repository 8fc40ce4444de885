import type { Analysis } from '../../../contract/index.js';
import { analysisStatuses, analysisStatusNotes, analysisTypeNotes, analysisTypes } from '../../../contract/vocabulary.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { addListOptions, choiceOption } from '../../output/list-options.js';
import { formatTime, idColumn, statusColor, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { printList } from '../../output/list-output.js';

const verb = (parent: Parent) =>
  addListOptions(
    parent
      .command('list')
      .alias('ls')
      .description("List the account's analyses, newest first (filters combine)")
      .option('--lot <id>', 'only analyses of this lot')
      .addOption(choiceOption('--analysis-type <type>', 'only this analysis type', analysisTypes, analysisTypeNotes))
      .addOption(choiceOption('--status <status>', 'only analyses in this state', analysisStatuses, analysisStatusNotes)),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl analyses list
  $ reportctl analyses list --lot lot-7 --analysis-type counting --status completed
  $ reportctl analyses list --all --json > analyses.json`,
    );
export type AnalysesListOptions = OptionsOf<typeof verb>;

export function registerAnalysesList(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AnalysesListOptions> = (options) => runAnalysesList(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export function analysisColumns(deps: CliDeps, wide: boolean): Column<Analysis>[] {
  const columns: Column<Analysis>[] = [
    idColumn(deps, wide, (analysis) => analysis.id),
    { header: 'LOT', value: (analysis) => analysis.lotId },
    { header: 'ANALYSIS', value: (analysis) => analysis.analysisType },
    { header: 'STATUS', value: (analysis) => analysis.status, color: (text, analysis, style) => statusColor(analysis.status, style)(text) },
  ];
  if (wide) {
    columns.push(
      idColumn(deps, wide, (analysis) => analysis.queueRunId, 'QUEUE RUN'),
      { header: 'CREATED', value: (analysis) => formatTime(analysis.createdAt, deps) },
    );
  }
  columns.push({ header: 'FINISHED', value: (analysis) => formatTime(analysis.finishedAt, deps) });
  return columns;
}

export async function runAnalysesList(options: AnalysesListOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const query = { lotId: options.lot, analysisType: options.analysisType, status: options.status };
  await printList(
    deps,
    options,
    { listing: session.api.analyses, query, noun: 'analyses' },
    analysisColumns(deps, options.wide === true),
  );
}
