import { analysisTypeNotes, analysisTypes, reportCategories, reportCategoryNotes } from '../../../contract/vocabulary.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { addListOptions, choiceOption } from '../../output/list-options.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { UsageError } from '../../cmdutil/errors.js';
import type { Session } from '../../session/session.js';
import { templateColumns } from './support/columns.js';
import { closestMatch } from '../../../contract/closest-match.js';
import { printList } from '../../output/list-output.js';

const verb = (parent: Parent) =>
  addListOptions(
    parent
      .command('list')
      .alias('ls')
      .description("List the account's templates, newest first")
      .addOption(choiceOption('--analysis-type <type>', 'only this analysis type', analysisTypes, analysisTypeNotes))
      .option('--report-type <key>', 'only this report type (exact key)')
      .addOption(choiceOption('--report-category <category>', 'only this category', reportCategories, reportCategoryNotes)),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates list
  $ reportctl templates list --analysis-type counting --wide
  $ reportctl templates list --all --json > templates.json`,
    );
export type TemplatesListOptions = OptionsOf<typeof verb>;

export function registerTemplatesList(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesListOptions> = (options) => runTemplatesList(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

/** A report type not in the catalog would only ever list nothing: say so, with the closest one. */
async function checkReportType(reportType: string, session: Session, deps: CliDeps): Promise<void> {
  // Loaded here: the cache loads node:crypto, which other commands never need.
  const { cachedCatalogs } = await import('../../session/catalog-cache.js');
  const catalog = (await cachedCatalogs(session, deps)).reportTypes;
  const keys = [...new Set(analysisTypes.flatMap((type) => catalog[type].map((entry) => entry.key)))];
  if (keys.includes(reportType)) return;
  const guess = closestMatch(reportType, keys);
  throw new UsageError(`no report type ${reportType} in the catalog${guess ? `; did you mean ${guess}?` : ''}`, 'see `reportctl catalogs report-types`');
}

export async function runTemplatesList(options: TemplatesListOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  if (options.reportType !== undefined) await checkReportType(options.reportType, session, deps);
  const query = { analysisType: options.analysisType, reportType: options.reportType, reportCategory: options.reportCategory };
  await printList(
    deps,
    options,
    { listing: session.api.templates, query, noun: 'templates' },
    templateColumns(deps, options.wide === true),
  );
}
