import type { Command } from 'commander';
import { analysisTypeNotes, analysisTypes, reportCategories, reportCategoryNotes } from '../../../contract/vocabulary.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { addListOptions, choiceOption, type ListOptions } from '../../list-options.js';
import type { Wrap } from '../../action.js';
import { UsageError } from '../../errors.js';
import type { Session } from '../../session.js';
import { templateColumns } from './shared/columns.js';

export interface TemplatesListOptions extends GlobalOptions, ListOptions {
  analysisType?: string;
  reportType?: string;
  reportCategory?: string;
}

export function registerTemplatesList(parent: Command, deps: CliDeps, wrap: Wrap): void {
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
    )
    .action(wrap(async (_o: unknown, command: Command) => runTemplatesList(command.optsWithGlobals<TemplatesListOptions>(), deps)));
}

/** A report type not in the catalog would only ever list nothing: say so, with the closest one. */
async function checkReportType(reportType: string, session: Session, deps: CliDeps): Promise<void> {
  const [{ cachedCatalogs }, { closestMatch }] = await Promise.all([import('../../catalog-cache.js'), import('../../suggest.js')]);
  const catalog = (await cachedCatalogs(session, deps)).reportTypes;
  const keys = [...new Set(analysisTypes.flatMap((type) => catalog[type].map((entry) => entry.key)))];
  if (keys.includes(reportType)) return;
  const guess = closestMatch(reportType, keys);
  throw new UsageError(`no report type ${reportType} in the catalog${guess ? `; did you mean ${guess}?` : ''}`, 'see `reportctl catalogs report-types`');
}

export async function runTemplatesList(options: TemplatesListOptions, deps: CliDeps): Promise<void> {
  const { printList } = await import('../../list-output.js');
  const session = await deps.api(options);
  if (options.reportType !== undefined) await checkReportType(options.reportType, session, deps);
  const query = { analysisType: options.analysisType, reportType: options.reportType, reportCategory: options.reportCategory };
  await printList(
    deps,
    session,
    options,
    { listing: session.api.templates, query, noun: 'templates' },
    templateColumns(deps, options.wide === true),
  );
}
