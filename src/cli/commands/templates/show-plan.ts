import type { CliDeps } from '../../cmdutil/context.js';
import { UsageError } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { choiceOption } from '../../output/list-options.js';
import { checkedPreviewsUrl, printReview } from './support/print-plan.js';

const verb = (parent: Parent) =>
  parent
    .command('show-plan')
    .description('Show a plan `templates diff --out` saved, again, from the file alone (no service): as diff printed it')
    .argument('<plan>', 'the plan file')
    .addOption(choiceOption('--format <format>', 'text (the default) or markdown: the plan as a pull-request comment', ['text', 'markdown'] as const))
    .option('--previews-url <url>', 'with --format markdown: where people find the pictures (the CI artifact), said in the comment')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates show-plan plan.json
  $ reportctl templates show-plan plan.json --format markdown --previews-url "$ARTIFACT_URL" > plan.md
  $ reportctl templates show-plan plan.json --json    # [{ action, name, id?, file?, fields?, diff? }]

As \`terraform show PLAN\` does: what \`templates diff --out PLAN\` printed (the changes by
element and field, the unified diffs, the Markdown comment or the JSON), read from the plan
alone, offline. The plan keeps the texts of the templates it changes (16 MiB at most, the
smallest first; a change past that is listed without its diff), each checked against the
sha256 apply checks. Files are shown relative to the plan file. stderr says which service,
folder and --prune the plan is for.

Exit status: 0, or 2 when the file is not a plan of this version, or is damaged.`,
    );
export type TemplatesShowPlanOptions = OptionsOf<typeof verb>;

export function registerTemplatesShowPlan(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesShowPlanOptions, [plan: string]> = (options, plan) => runTemplatesShowPlan(plan, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesShowPlan(file: string, options: TemplatesShowPlanOptions, deps: CliDeps): Promise<void> {
  if (options.json && options.format === 'markdown') throw new UsageError('give --json or --format markdown, not both');
  const previewsUrl = checkedPreviewsUrl(options);
  const [{ parseSavedPlan, readPlanFile }, { reviewOfSaved, reviewSummary }] = await Promise.all([import('./support/saved-plan.js'), import('./support/plan-review.js')]);
  // Only shown, never applied: a plan other users could write to is still shown.
  const plan = await parseSavedPlan(await readPlanFile(file, 'PLAN', { othersMayWrite: true }), escapeControls(file));
  const review = reviewOfSaved(plan);
  await printReview(review, { ...options, ...(previewsUrl ? { previewsUrl } : {}) }, deps);
  const pruned = plan.prune ? ', with --prune' : '';
  writeLine(deps.io.stderr, escapeControls(`${file}: a plan for ${plan.dir} on ${plan.baseUrl}${pruned}: ${reviewSummary(review)}`));
}
