import type { CliDeps } from '../../cmdutil/context.js';
import { dirname, relative, resolve } from 'node:path';
import { ExitCode, SilentFailure, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { choiceOption } from '../../output/list-options.js';
import { checkedPreviewsUrl, printReview } from './support/print-plan.js';

const verb = (parent: Parent) =>
  parent
    .command('diff')
    .description("Show how a folder of template files differs from the service's templates (nothing is written)")
    .argument('<dir>', 'the folder of template files (*.json)')
    .option('--prune', "also show the service's templates that are in no file (apply --prune deletes them)")
    .addOption(choiceOption('--format <format>', 'text (the default) or markdown: the plan as a pull-request comment', ['text', 'markdown'] as const))
    .option('--previews <out>', 'also write before and after pictures (SVG) of the layouts that change, and an index.html, into OUT')
    .option('--previews-url <url>', 'with --format markdown: where people find the pictures (the CI artifact), said in the comment')
    .option('--out <plan>', 'also save the plan to this file (0600), for `templates apply --plan` and `templates show-plan`')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates diff templates/
  $ reportctl templates diff templates/ --prune --json
  $ reportctl templates diff templates/ --prune --out plan.json   # then: templates apply --plan plan.json
  $ reportctl templates diff templates/ --format markdown --previews previews/ > plan.md

Each file is compared with the service's template of the same name, both normalised (the
catalog's defaults filled in, keys in the contract's order). For each replaced template, what
changes by element and field (\`~ layouts.landscape map: height 0.8 → 0.75\`), then its unified
diff; the files that would be created and, with --prune, the templates that would be deleted.
Every file that is not JSON or not a valid template is reported, as \`templates validate\`
reports it, in one run; invalid files never count as differences.

The plan --out saves records the service, the account (a fingerprint of the key) and the
folder (relative to the plan file), and the texts of the templates it changes, so
\`templates show-plan\` shows it again offline.

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
  const previewsUrl = checkedPreviewsUrl(options);
  const [{ planFromFolder, planSummary }, { shown }, { reviewOf }, { accountOf, recordedDir, savedPlanOf, writePlanFile }] = await Promise.all([
    import('./support/plan.js'),
    import('./support/folder.js'),
    import('./support/plan-review.js'),
    import('./support/saved-plan.js'),
  ]);
  if (options.out !== undefined && options.out.endsWith('.json') && resolve(dirname(options.out)) === resolve(dir)) {
    throw new UsageError(`--out ${shown(options.out)} is in ${shown(dir)}: the next run would read the plan as a template`, 'save the plan outside the folder');
  }
  const { session, plan, files } = await planFromFolder(dir, options, deps);
  const review = reviewOf(plan);
  if (options.out !== undefined) {
    const context = { baseUrl: session.settings.baseUrl, account: accountOf(session.settings.apiKey), dir: recordedDir(relative(dirname(resolve(options.out)), resolve(dir))), prune: options.prune === true, files };
    await writePlanFile(options.out, savedPlanOf(plan, context));
  }
  if (options.previews !== undefined) {
    const { writePlanPreviews } = await import('./support/plan-previews.js');
    const written = await writePlanPreviews(review, options.previews);
    writeLine(deps.io.stderr, escapeControls(`wrote ${written.files} ${written.files === 1 ? 'picture' : 'pictures'} and ${written.index}`));
  }
  await printReview(review, { ...options, ...(previewsUrl ? { previewsUrl } : {}) }, deps);
  writeLine(deps.io.stderr, `${shown(dir)}: ${planSummary(plan)}`);
  if (options.out !== undefined) writeLine(deps.io.stderr, `plan saved to ${shown(options.out)}: \`reportctl templates apply --plan ${shown(options.out)}\` carries it out`);
  if (review.changes.length === 0) return ExitCode.ok;
  throw new SilentFailure(ExitCode.differences, `the service's templates differ from ${shown(dir)}`);
}
