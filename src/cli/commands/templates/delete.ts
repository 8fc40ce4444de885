import type { CliDeps } from '../../cmdutil/context.js';
import { UsageError } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { resolveTemplate } from '../../session/resolve.js';
import { shortId } from '../../output/output.js';

const verb = (parent: Parent) =>
  parent
    .command('delete')
    .alias('rm')
    .description('Delete a template (asks first on a terminal)')
    .argument('<id>', 'template id, a unique prefix of it (6+ characters) or the exact name')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  $ reportctl templates delete ID\n  $ reportctl templates delete ID --yes');
export type TemplatesDeleteOptions = OptionsOf<typeof verb>;

export function registerTemplatesDelete(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesDeleteOptions, [id: string]> = (options, id) => runTemplatesDelete(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesDelete(reference: string, options: TemplatesDeleteOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  // A template that is not there is a 404 before any question about deleting it.
  const template = await resolveTemplate(session.api, reference, deps.signal);
  const { id } = template;
  deps.io.progress.stop();
  // The id has the service's shape (resolveTemplate checks it); the name is anything.
  const named = `"${escapeControls(template.name)}" (${shortId(id)})`;
  if (!options.yes) {
    if (!deps.io.canPrompt(options.input === false)) {
      throw new UsageError(`refusing to delete template ${named} without confirmation`, 'pass --yes to delete without a prompt');
    }
    const sure = await deps.prompter.confirm({ message: `Delete template ${named}? This cannot be undone.`, default: false });
    if (!sure) {
      writeLine(deps.io.stderr, 'not deleted');
      return;
    }
  }
  await session.api.templates.delete(id);
  if (options.json) writeLine(deps.io.stdout, JSON.stringify({ id, deleted: true }));
  else writeLine(deps.io.stderr, `deleted template ${id}`);
}
