import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { printJson, printFields } from '../../output/output.js';
import { resolveTemplate } from '../../session/resolve.js';

const verb = (parent: Parent) =>
  parent
    .command('get')
    .aliases(['show', 'view'])
    .description('Show one template (the whole document with --json)')
    .argument('<id>', 'template id, a unique prefix of it (6+ characters) or the exact name')
    .addHelpText('after', '\nExamples:\n  $ reportctl templates get 3c44560e-3111-4551-b3a0-e5d90d9356b3\n  $ reportctl templates get ID --json > template.json');
export type TemplatesGetOptions = OptionsOf<typeof verb>;

export function registerTemplatesGet(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesGetOptions, [id: string]> = (options, id) => runTemplatesGet(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesGet(reference: string, options: TemplatesGetOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const template = await resolveTemplate(session.api, reference, deps.signal);
  if (options.json) return printJson(deps, template);
  const style = await deps.io.style(options.color);
  const rows: [string, string][] = [
    ['id', template.id],
    ['name', template.name],
    ['analysis type', template.analysisType],
    ['report type', `${template.reportType} (${template.reportTypeId})`],
    ['category', template.reportCategory],
    ['statistics', template.selectedStatistics.join(', ') || '-'],
    ['paper', `${template.paperSize ?? '-'}, ${template.mapResolution ?? '-'} dpi`],
    ['layouts', Object.keys(template.layouts ?? {}).join(', ') || '-'],
  ];
  if (template.indexName) rows.push(['index', template.indexName]);
  if (template.formula) rows.push(['formula', template.formula]);
  if (template.saviL !== undefined) rows.push(['saviL', String(template.saviL)]);
  rows.push(['created', template.createdAt], ['updated', template.updatedAt]);
  printFields(deps, style, rows);
}
