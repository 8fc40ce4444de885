import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { changeColour, escapeXml, renderTemplateSvg, type Orientation } from '../../../../preview/index.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { PlanReview } from './plan-review.js';
import { slugOf } from './slug.js';
import { changedElements, orientationsOf, statisticsChange } from './template-changes.js';

/** One page of a created or replaced template whose picture changes. */
export interface PlanPicture {
  action: 'create' | 'replace';
  name: string;
  file: string;
  orientation: Orientation;
  /** File names in the previews folder; a created template has no before. */
  before?: string;
  after: string;
  svgs: { before?: string; after: string };
  problems: string[];
}

const orientations: readonly Orientation[] = ['portrait', 'landscape'];

/**
 * The pictures of a plan: a before and an after for each layout of a replaced template that
 * draws differently or whose statistics change, an after for each of a created one; the
 * elements the change touches are outlined, and the statistics it adds or removes are listed
 * below the page. Deletions, unchanged pages and changes whose texts a plan did not keep have none.
 */
function planPictures(review: PlanReview): PlanPicture[] {
  const pictures: PlanPicture[] = [];
  const taken = new Set<string>();
  for (const change of review.changes) {
    if (change.action === 'delete' || change.after === undefined || (change.action === 'replace' && change.before === undefined)) continue;
    const before: unknown = change.action === 'replace' ? JSON.parse(change.before!) : undefined;
    const after: unknown = JSON.parse(change.after);
    const statistics = before === undefined ? undefined : statisticsChange(before as Record<string, unknown>, after as Record<string, unknown>);
    const drawn = new Set([...(before === undefined ? [] : orientationsOf(before)), ...orientationsOf(after)]);
    const changed = orientations
      .filter((orientation) => drawn.has(orientation))
      .map((orientation) => {
        const elements = changedElements(before, after, orientation);
        const plain = before === undefined ? undefined : renderTemplateSvg(before, { orientation }).svg;
        return {
          orientation,
          drawsTheSame: plain === renderTemplateSvg(after, { orientation }).svg,
          before: before === undefined ? undefined : renderTemplateSvg(before, { orientation, changes: { elements: elements.before, ...(statistics ? { statistics } : {}) } }),
          after: renderTemplateSvg(after, { orientation, changes: { elements: elements.after, ...(statistics ? { statistics } : {}) } }),
        };
      })
      .filter((page) => !page.drawsTheSame || (statistics !== undefined && statistics.added.length + statistics.removed.length > 0));
    if (changed.length === 0) continue;
    const base = uniqueBase(slugOf(change.name), taken);
    for (const page of changed) {
      const stem = `${base}.${page.orientation}`;
      pictures.push({
        action: change.action,
        name: change.name,
        file: change.file,
        orientation: page.orientation,
        ...(page.before ? { before: `${stem}.before.svg` } : {}),
        after: `${stem}.after.svg`,
        svgs: { ...(page.before ? { before: page.before.svg } : {}), after: page.after.svg },
        problems: page.after.problems,
      });
    }
  }
  return pictures;
}

function uniqueBase(slug: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : `${slug}-${n}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

const escapeHtml = (text: string) => escapeXml(escapeControls(text));

/** A page showing each before and after side by side: pictures from its own folder, nothing else loaded. */
function previewsIndexHtml(pictures: readonly PlanPicture[]): string {
  const figure = (caption: string, file: string | undefined) =>
    file === undefined
      ? `<figure class="none"><figcaption>${caption}</figcaption><p>(none: a new template)</p></figure>`
      : `<figure><figcaption>${caption}</figcaption><a href="${escapeHtml(file)}"><img src="${escapeHtml(file)}" alt="${caption}: ${escapeHtml(file)}"></a></figure>`;
  const sections = pictures.map((picture) =>
    [
      '<section>',
      `<h2>${picture.action} <q>${escapeHtml(picture.name)}</q> <small>${picture.orientation}, from ${escapeHtml(picture.file)}</small></h2>`,
      '<div class="pair">',
      figure('before', picture.before),
      figure('after', picture.after),
      '</div>',
      ...(picture.problems.length > 0 ? ['<ul class="problems">', ...picture.problems.map((problem) => `<li>${escapeHtml(problem)}</li>`), '</ul>'] : []),
      '</section>',
    ].join('\n'),
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Pictures from this folder only: no script, no request anywhere else.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'">`,
    '<title>Template plan: pictures</title>',
    '<style>',
    'body { font-family: sans-serif; margin: 1.5rem; color: #222; }',
    'h2 { font-size: 1.1rem; } h2 small { font-weight: normal; color: #555; }',
    '.pair { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }',
    'figure { margin: 0; } figcaption { font-weight: bold; margin-bottom: .3rem; }',
    'img { width: 420px; max-width: 100%; border: 1px solid #ccc; }',
    '.none p { width: 420px; color: #777; } .problems { color: #a33; }',
    '</style>',
    '</head>',
    '<body>',
    '<h1>Template plan: pictures</h1>',
    pictures.length === 0
      ? '<p>No layout changes to show.</p>'
      : `<p>${pictures.length} ${pictures.length === 1 ? 'page' : 'pages'} whose picture changes. Outlined in <span style="color: ${changeColour}">purple</span>: the elements the change touches; below a page, the statistics it adds (+) or removes (−).</p>`,
    ...sections,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Writes the pictures and index.html into `dir` (made if missing; other files there are left
 * alone). A folder that cannot be written is a bad --previews: exit 2, before any output.
 * Pictures are 0644 and folders made here 0755, whatever the umask (a stricter one still
 * applies): readable, for a browser and the artifact upload, and never writable by others.
 */
export async function writePlanPreviews(review: PlanReview, dir: string): Promise<{ files: number; index: string }> {
  // Loaded here: it loads node:crypto, which other commands never need.
  const { replaceFile } = await import('../../../output/output-file.js');
  const pictures = planPictures(review);
  const index = join(dir, 'index.html');
  const files = [
    ...pictures.flatMap((picture) => [
      ...(picture.before !== undefined && picture.svgs.before !== undefined ? [{ path: join(dir, picture.before), text: picture.svgs.before }] : []),
      { path: join(dir, picture.after), text: picture.svgs.after },
    ]),
    { path: index, text: previewsIndexHtml(pictures) },
  ];
  let path = dir;
  try {
    await mkdir(dir, { recursive: true, mode: 0o755 });
    for (const file of files) {
      path = file.path;
      await replaceFile(file.path, file.text, 0o644);
    }
  } catch (error) {
    throw new CliError(`--previews: cannot write ${escapeControls(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.usage, 'give a folder that can be written');
  }
  return { files: files.length - 1, index };
}
