import type { CliDeps } from '../../../cmdutil/context.js';
import { UsageError } from '../../../cmdutil/errors.js';
import { writeData, writeLine } from '../../../iostreams/io.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { PlanReview } from './plan-review.js';

/** --previews-url, which only a Markdown plan shows: a web address (http or https) or nothing. */
export function checkedPreviewsUrl(options: { previewsUrl?: string; format?: string }): string | undefined {
  if (options.previewsUrl === undefined) return undefined;
  if (options.format !== 'markdown') throw new UsageError('--previews-url goes with --format markdown: the comment says where the pictures are');
  let url: URL | undefined;
  try {
    url = new URL(options.previewsUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new UsageError(`--previews-url ${escapeControls(options.previewsUrl)} is not an http or https address`);
  return url.href;
}

/** A plan on stdout as the options ask: text (coloured on a terminal that allows it), Markdown or JSON. */
export async function printReview(review: PlanReview, options: { format?: 'text' | 'markdown'; json?: boolean; color?: boolean; previewsUrl?: string }, deps: CliDeps): Promise<void> {
  if (options.format === 'markdown') {
    const { markdownPlan } = await import('./markdown-plan.js');
    await writeData(deps.io.stdout, markdownPlan(review, options.previewsUrl === undefined ? {} : { previewsUrl: options.previewsUrl }));
    return;
  }
  const { jsonChanges, textLines } = await import('./plan-review.js');
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify(jsonChanges(review)));
    return;
  }
  const style = await deps.io.style(options.color);
  for (const line of textLines(review, style)) writeLine(deps.io.stdout, line);
}
