// A plan as people review it: each change with the texts it goes from and to, whether it was
// just worked out (`diff`) or read back from a plan file (`show-plan`). Every way of printing
// a plan (text, Markdown, JSON) starts here, so both verbs print the same.
import { posix } from 'node:path';
import type { Style } from '../../../iostreams/style.js';
import { escapeControls, jsonForTerminal } from '../../../iostreams/sanitize.js';
import { quoted, shown } from './folder.js';
import { changesInReadingOrder, type TemplatePlan } from './plan.js';
import type { SavedPlan } from './saved-plan.js';
import { fieldChanges } from './template-changes.js';
import { unifiedHunks } from './unified-diff.js';

/**
 * One change and its texts as `pull` would write them; a text is undefined when a plan file
 * did not keep it (past its bound).
 */
export type ReviewChange =
  | { action: 'create'; name: string; file: string; after: string | undefined; renameOf?: { name: string; id: string } }
  | { action: 'replace'; name: string; id: string; file: string; before: string | undefined; after: string | undefined }
  | { action: 'delete'; name: string; id: string; before: string | undefined };

export interface PlanReview {
  /** Files in order, then the deletions: the order a reader walks the folder in. */
  changes: ReviewChange[];
  unchanged: number;
}

/** Said where a change's text is not in a plan file. */
export const TEXT_NOT_KEPT = 'its text is not in the plan file (it keeps 16 MiB of text at most): `templates diff` shows it';

export function reviewOf(plan: TemplatePlan): PlanReview {
  const changes = changesInReadingOrder(plan).map((change): ReviewChange => {
    if (change.action === 'replace') return { action: 'replace', name: change.name, id: change.id, file: change.file, before: change.before, after: change.after };
    if (change.action === 'delete') return { action: 'delete', name: change.name, id: change.id, before: change.text };
    return { action: 'create', name: change.name, file: change.file, after: change.text, ...(change.renameOf ? { renameOf: { name: change.renameOf.name, id: change.renameOf.id } } : {}) };
  });
  return { changes, unchanged: plan.unchanged.length };
}

/** A saved plan's changes with the texts it kept; files as `DIR/NAME.json`, DIR relative to the plan file. */
export function reviewOfSaved(saved: SavedPlan): PlanReview {
  const text = (hash: string) => saved.texts[hash];
  const file = (name: string) => posix.join(saved.dir, name);
  const changes = saved.changes.map((change): ReviewChange => {
    if (change.action === 'replace') return { action: 'replace', name: change.name, id: change.id, file: file(change.file), before: text(change.serviceSha256), after: text(change.afterSha256) };
    if (change.action === 'delete') return { action: 'delete', name: change.name, id: change.id, before: text(change.serviceSha256) };
    return { action: 'create', name: change.name, file: file(change.file), after: text(change.afterSha256), ...(change.renameOf ? { renameOf: change.renameOf } : {}) };
  });
  const inFiles = changes.filter((change) => change.action !== 'delete').sort((a, b) => ((a as { file: string }).file < (b as { file: string }).file ? -1 : 1));
  return { changes: [...inFiles, ...changes.filter((change) => change.action === 'delete')], unchanged: saved.unchanged.length };
}

/** `2 to create, 1 to replace, 0 to delete, 5 unchanged` */
export function reviewSummary(review: PlanReview): string {
  const count = (action: ReviewChange['action']) => review.changes.filter((change) => change.action === action).length;
  return `${count('create')} to create, ${count('replace')} to replace, ${count('delete')} to delete, ${review.unchanged} unchanged`;
}

const beforeOf = (change: ReviewChange) => (change.action === 'create' ? '' : change.before);
const afterOf = (change: ReviewChange) => (change.action === 'delete' ? '' : change.after);

/** The unified diff of a change; undefined when a text is not kept. */
export function hunksOf(change: ReviewChange): string[] | undefined {
  const [before, after] = [beforeOf(change), afterOf(change)];
  return before === undefined || after === undefined ? undefined : unifiedHunks(before, after);
}

/** The change by element and field (a replacement's only: a whole new or deleted template is its diff). */
export function fieldsOf(change: ReviewChange): string[] {
  if (change.action !== 'replace' || change.before === undefined || change.after === undefined) return [];
  return fieldChanges(JSON.parse(change.before), JSON.parse(change.after));
}

/** The plan as `diff` prints it: per change its field changes (`~ …`), then its unified diff. */
export function textLines(review: PlanReview, style: Style): string[] {
  const lines: string[] = [];
  const colour = (line: string) => (line.startsWith('@@') ? style.cyan(line) : line.startsWith('+') ? style.green(line) : line.startsWith('-') ? style.red(line) : line);
  for (const change of review.changes) {
    const [from, to] =
      change.action === 'replace'
        ? [`service/${change.id} ${quoted(change.name)}`, shown(change.file)]
        : change.action === 'create'
          ? ['/dev/null', `${shown(change.file)} (new: ${quoted(change.name)})`]
          : [`service/${change.id} ${quoted(change.name)}`, '/dev/null (in no file)'];
    for (const field of fieldsOf(change)) lines.push(style.yellow(`~ ${escapeControls(field)}`));
    lines.push(style.bold(`--- ${from}`), style.bold(`+++ ${to}`));
    const hunks = hunksOf(change);
    if (hunks === undefined) lines.push(`# ${TEXT_NOT_KEPT}`);
    else for (const line of hunks) lines.push(colour(jsonForTerminal(line)));
  }
  return lines;
}

/** The plan as `diff --json` prints it: `[{ action, name, id?, file?, fields?, diff?, renameOf? }]`. */
export function jsonChanges(review: PlanReview): unknown[] {
  return review.changes.map((change) => {
    if (change.action === 'delete') return { action: change.action, name: change.name, id: change.id };
    if (change.action === 'create') return { action: change.action, name: change.name, file: change.file, ...(change.renameOf ? { renameOf: change.renameOf } : {}) };
    const hunks = hunksOf(change);
    return { action: change.action, name: change.name, id: change.id, file: change.file, fields: fieldsOf(change), diff: hunks === undefined ? null : hunks.join('\n') + '\n' };
  });
}
