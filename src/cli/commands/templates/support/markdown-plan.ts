import { escapeXml } from '../../../../preview/index.js';
import { escapeControls, jsonForTerminal } from '../../../iostreams/sanitize.js';
import { fieldsOf, hunksOf, reviewSummary, TEXT_NOT_KEPT, type PlanReview, type ReviewChange } from './plan-review.js';
import { pageProblems } from './template-changes.js';

/** GitHub refuses a comment longer than this (in characters). */
export const MAX_COMMENT_LENGTH = 65_536;

/** A hidden first line, so a CI job can find its own comment and update it. */
export const PLAN_MARKER = '<!-- reportctl templates plan -->';

/**
 * Text for inside HTML, where GitHub also reads Markdown: controls made visible, then as numeric
 * entities the signs of HTML and Markdown, `@` (a mention), `#` (an issue link), `:` (an emoji
 * or a link) and `$` (maths).
 */
export function escapeMarkdown(text: string): string {
  return escapeControls(text).replace(/[&<>"'\\`*_[\]()#+!|~@:$]/g, (sign) => `&#${sign.charCodeAt(0)};`);
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

interface Section {
  heading: string;
  /** Field changes and layout problems: what a reviewer reads first. */
  notes: string[];
  diff: string[];
  /** Lines shown, when the diff was cut to fit. */
  shown?: number;
}

export interface MarkdownOptions {
  /** Where the pictures of `diff --previews` are (the CI job's artifact). */
  previewsUrl?: string;
  /** GitHub's limit unless said. */
  limit?: number;
}

/**
 * The plan as a pull-request comment: the summary and where the pictures are, then one
 * collapsed section per change: what changes by element and field, each page's layout
 * problems after the change, and the unified diff. Past `limit` characters, the longest diffs
 * are cut first (each to the same length) and the comment says so; if the sections without
 * their diffs are too long, the last are left out.
 */
export function markdownPlan(review: PlanReview, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? MAX_COMMENT_LENGTH;
  const sections = review.changes.map(sectionOf);
  const pictures = options.previewsUrl === undefined ? [] : [`Pictures of each page that changes, before and after: <a href="${escapeXml(options.previewsUrl)}">the plan's previews</a> (index.html).`, ''];
  const head = [PLAN_MARKER, '### Template plan', '', `**${reviewSummary(review)}**`, '', ...pictures];
  const render = (note: string[], listed: Section[], unlisted: number) =>
    [
      ...head,
      ...note,
      ...listed.map(renderSection),
      ...(unlisted > 0 ? [`… and ${unlisted} more ${unlisted === 1 ? 'change' : 'changes'}, left out to fit one comment.`, ''] : []),
    ].join('\n');

  const whole = render([], sections, 0);
  if (whole.length <= limit) return whole;
  const cutNote = [`> Some diffs are cut to fit GitHub's comment limit (${limit.toLocaleString('en-US')} characters), the longest first; \`reportctl templates diff\` shows them whole.`, ''];
  // The largest length every diff can keep (in characters of its lines) for the comment to fit.
  const fits = (cap: number, listed: Section[]) => render(cutNote, listed.map((section) => cut(section, cap)), sections.length - listed.length).length <= limit;
  let listed = sections;
  while (listed.length > 0 && !fits(0, listed)) listed = listed.slice(0, Math.max(0, listed.length - Math.ceil(listed.length / 10)));
  let [low, high] = [0, Math.max(0, ...sections.map((section) => diffLength(section.diff)))];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle, listed)) low = middle;
    else high = middle - 1;
  }
  return render(cutNote, listed.map((section) => cut(section, low)), sections.length - listed.length);
}

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function sectionOf(change: ReviewChange): Section {
  const name = `<b>${escapeMarkdown(change.name)}</b>`;
  const code = (text: string) => `<code>${escapeMarkdown(text)}</code>`;
  const fields = fieldsOf(change);
  const problems = change.action === 'delete' ? [] : pageProblems(change.action === 'replace' ? change.before : undefined, change.after);
  const counts = [...(fields.length > 0 ? [counted(fields.length, 'change', 'changes')] : []), ...(problems.length > 0 ? [counted(problems.length, 'layout problem', 'layout problems')] : [])];
  const what =
    change.action === 'replace'
      ? `replace ${name} ${code(change.id)} from ${code(change.file)}`
      : change.action === 'create'
        ? `create ${name} from ${code(change.file)}${change.renameOf ? `, a rename of <b>${escapeMarkdown(change.renameOf.name)}</b>?` : ''}`
        : `delete ${name} ${code(change.id)} (in no file)`;
  const notes = [
    ...(fields.length > 0 ? [...fields.map((field) => `- ${escapeMarkdown(field)}`), ''] : []),
    ...(problems.length > 0 ? ['Layout problems after the change:', '', ...problems.map((problem) => `- ${escapeMarkdown(problem)}`), ''] : []),
  ];
  const hunks = hunksOf(change);
  return { heading: counts.length > 0 ? `${what}: ${counts.join(', ')}` : what, notes: hunks === undefined ? [...notes, `*${escapeMarkdown(TEXT_NOT_KEPT)}*`, ''] : notes, diff: hunks ?? [] };
}

const diffLength = (lines: readonly string[]) => lines.reduce((total, line) => total + line.length + 1, 0);

/** The section with as many whole lines of its diff as fit in `cap` characters. */
function cut(section: Section, cap: number): Section {
  if (diffLength(section.diff) <= cap) return section;
  let [kept, length] = [0, 0];
  while (kept < section.diff.length && length + section.diff[kept]!.length + 1 <= cap) length += section.diff[kept++]!.length + 1;
  return { ...section, diff: section.diff.slice(0, kept), shown: section.diff.length };
}

function renderSection(section: Section): string {
  const body = section.diff.map(jsonForTerminal).join('\n');
  const fence = fenceFor(body);
  const cutLine = section.shown === undefined ? [] : [`*Cut to fit: ${section.diff.length} of ${section.shown} lines shown.*`, ''];
  const block = section.diff.length === 0 ? [] : [`${fence}diff`, body, fence, ''];
  return ['<details>', `<summary>${section.heading}</summary>`, '', ...section.notes, ...block, ...cutLine, '</details>', ''].join('\n');
}
