import type { CliDeps } from '../../cmdutil/context.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { submitTemplate } from './support/submit.js';
import { printJson } from '../../output/output.js';
import { readJsonInput } from '../../cmdutil/input.js';
import { resolveTemplateId } from '../../session/resolve.js';

const verb = (parent: Parent) =>
  parent
    .command('replace')
    .description('Replace a whole template with a document (fields left out are gone: not a merge)')
    .argument('<id>', 'template id, a unique prefix of it (6+ characters) or the exact name')
    .requiredOption('-f, --file <path>', 'the complete template document as JSON (`-` reads stdin)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates get ID --json > t.json && $EDITOR t.json && reportctl templates replace ID --file t.json
  $ reportctl templates replace ID --file - < t.json`,
    );
export type TemplatesReplaceOptions = OptionsOf<typeof verb>;

export function registerTemplatesReplace(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesReplaceOptions, [id: string]> = (options, id) => runTemplatesReplace(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesReplace(reference: string, options: TemplatesReplaceOptions, deps: CliDeps): Promise<void> {
  const body = await readJsonInput(options.file, deps);
  const session = await deps.api(options);
  const id = await resolveTemplateId(session.api, reference, deps.signal);
  const replaced = await submitTemplate(session.api, body, (value) => session.api.templates.replace(id, value), `the document for ${id}`);
  if (options.json) return printJson(deps, replaced);
  writeLine(deps.io.stdout, replaced.id);
  writeLine(deps.io.stderr, `replaced template ${replaced.id} (${escapeControls(replaced.name)})`);
}
