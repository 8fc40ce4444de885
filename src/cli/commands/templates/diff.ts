import type { CliDeps } from '../../cmdutil/context.js';
import { dirname, resolve } from 'node:path';
import { ExitCode, SilentFailure, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeData, writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { Style } from '../../iostreams/style.js';
import { escapeControls, jsonForTerminal } from '../../iostreams/sanitize.js';
import { choiceOption } from '../../output/list-options.js';

const verb = (parent: Parent) =>
  parent
    .command('diff')
    .description("Show how a folder of template files differs from the service's templates (nothing is written)")
    .argument('<dir>', 'the folder of template files (*.json)')
    .option('--prune', "also show the service's templates that are in no file (apply --prune deletes them)")
    .addOption(choiceOption('--format <format>', 'text (the default) or markdown: the plan as a pull-request comment', ['text', 'markdown'] as const))
    .option('--previews <out>', 'also write before and after pictures (SVG) of the layouts that change, and an index.html, into OUT')
    .option('--out <plan>', 'also save the plan to this file, for `templates apply --plan` (written with exit 0 or 10)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates diff templates/
  $ reportctl templates diff templates/ --prune --json
  $ reportctl templates diff templates/ --prune --out plan.json   # then: templates apply --plan plan.json
  $ reportctl templates diff templates/ --format markdown --previews previews/ > plan.md

Each file is compared with the service's template of the same name, both normalised (the
catalog's defaults filled in, keys in the contract's order): a unified diff per changed
template, the files that would be created and, with --prune, the templates that would be
deleted. Every file that is not JSON or not a valid template is reported, as \`templates
validate\` reports it, in one run; invalid files never count as differences.

Exit status: 0 no differences, 10 differences (a code no failure uses), 1 a file that is not
JSON or not a valid template, or the service failed, 2 usage errors, duplicate names and any
*.json entry that is not a readable file; 3 to 6 as for every command.`,
    );
export type TemplatesDiffOptions = OptionsOf<typeof verb>;

export function registerTemplatesDiff(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesDiffOptions, [dir: string]> = (options, dir) => runTemplatesDiff(dir, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesDiff(dir: string, options: TemplatesDiffOptions, deps: CliDeps): Promise<ExitCodeValue> {
  if (options.json && options.format === 'markdown') throw new UsageError('give --json or --format markdown, not both');
  const [{ changesInReadingOrder, planFromFolder, planSummary }, { quoted, shown }, { unifiedHunks }, { planFileText }, { writeFileAtomically }] = await Promise.all([
    import('./support/plan.js'),
    import('./support/folder.js'),
    import('./support/unified-diff.js'),
    import('./support/saved-plan.js'),
    import('../../output/output-file.js'),
  ]);
  if (options.out !== undefined && options.out.endsWith('.json') && resolve(dirname(options.out)) === resolve(dir)) {
    throw new UsageError(`--out ${shown(options.out)} is in ${shown(dir)}: the next run would read the plan as a template`, 'save the plan outside the folder');
  }
  const { plan, saved } = await planFromFolder(dir, options, deps, {});
  if (options.out !== undefined) await writeFileAtomically(options.out, planFileText(saved), '--out');
  const changes = changesInReadingOrder(plan);
  if (options.previews !== undefined) {
    const { writePlanPreviews } = await import('./support/plan-previews.js');
    const written = await writePlanPreviews(plan, options.previews);
    writeLine(deps.io.stderr, escapeControls(`wrote ${written.files} ${written.files === 1 ? 'picture' : 'pictures'} and ${written.index}`));
  }
  if (options.format === 'markdown') {
    const { markdownPlan } = await import('./support/markdown-plan.js');
    await writeData(deps.io.stdout, markdownPlan(plan));
  } else if (options.json) {
    const listed = changes.map((change) => {
      if (change.action === 'replace') return { action: change.action, name: change.name, id: change.id, file: change.file, diff: unifiedHunks(change.before, change.after).join('\n') + '\n' };
      if (change.action === 'create') return { action: change.action, name: change.name, file: change.file, ...(change.renameOf ? { renameOf: { name: change.renameOf.name, id: change.renameOf.id } } : {}) };
      return { action: change.action, name: change.name, id: change.id };
    });
    writeLine(deps.io.stdout, JSON.stringify(listed));
  } else {
    const style = await deps.io.style(options.color);
    for (const change of changes) {
      const [before, after, from, to] =
        change.action === 'replace'
          ? [change.before, change.after, `service/${change.id} ${quoted(change.name)}`, shown(change.file)]
          : change.action === 'create'
            ? ['', change.text, '/dev/null', `${shown(change.file)} (new: ${quoted(change.name)})`]
            : [change.text, '', `service/${change.id} ${quoted(change.name)}`, '/dev/null (in no file)'];
      writeLine(deps.io.stdout, style.bold(`--- ${from}`));
      writeLine(deps.io.stdout, style.bold(`+++ ${to}`));
      for (const line of unifiedHunks(before, after)) writeLine(deps.io.stdout, colourLine(jsonForTerminal(line), style));
    }
  }
  writeLine(deps.io.stderr, `${shown(dir)}: ${planSummary(plan)}`);
  if (options.out !== undefined) writeLine(deps.io.stderr, `plan saved to ${shown(options.out)}: \`reportctl templates apply --plan ${shown(options.out)}\` carries it out`);
  if (changes.length === 0) return ExitCode.ok;
  throw new SilentFailure(ExitCode.differences, `the service's templates differ from ${shown(dir)}`);
}

function colourLine(line: string, style: Style): string {
  if (line.startsWith('@@')) return style.cyan(line);
  if (line.startsWith('+')) return style.green(line);
  if (line.startsWith('-')) return style.red(line);
  return line;
}
