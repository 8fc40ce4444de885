// Loaded only by the verbs that print diffs: jsdiff's array diff (a few kilobytes of it).
import { diffArrays } from 'diff/lib/diff/array.js';

/** One line of a line diff: kept (' '), removed ('-') or added ('+'). */
export interface LineEdit {
  kind: ' ' | '-' | '+';
  line: string;
}

/**
 * Past this many lines removed plus added, the search for a shorter edit stops and the changed
 * part is shown as removed whole, then added whole. Myers' search costs about (lines × edits)
 * steps: this bounds it for any template the service accepts (bench/diff-memory.mjs).
 */
export const MAX_EDIT_LENGTH = 1_000;

/**
 * The shortest edit from `before` to `after`, line by line (Myers' algorithm, by jsdiff), after
 * the common head and tail are set aside: a changed template is a few lines among many. Within
 * a change, removed lines come before added ones, as in diff(1) and git.
 */
export function lineEdits(before: readonly string[], after: readonly string[], maxEditLength = MAX_EDIT_LENGTH): LineEdit[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const edits: LineEdit[] = [];
  const push = (kind: LineEdit['kind'], lines: readonly string[]) => {
    for (const line of lines) edits.push({ kind, line });
  };
  push(' ', before.slice(0, head));
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const changes = a.length === 0 || b.length === 0 ? undefined : diffArrays(a, b, { maxEditLength });
  if (changes === undefined) {
    // One side empty, or too far apart to search: the middle replaced whole.
    push('-', a);
    push('+', b);
  } else {
    const removed: string[] = [];
    const added: string[] = [];
    const flush = () => {
      push('-', removed.splice(0));
      push('+', added.splice(0));
    };
    for (const change of changes) {
      if (change.removed) removed.push(...change.value);
      else if (change.added) added.push(...change.value);
      else {
        flush();
        push(' ', change.value);
      }
    }
    flush();
  }
  push(' ', before.slice(before.length - tail));
  return edits;
}

/** The hunks of a unified diff (`@@ -3,7 +3,7 @@` and its lines), `context` unchanged lines around each change. */
export function unifiedHunks(before: string, after: string, context = 3): string[] {
  const edits = lineEdits(splitLines(before), splitLines(after));
  const changed = edits.flatMap((edit, index) => (edit.kind === ' ' ? [] : [index]));
  const lines: string[] = [];
  // Lines of each side before `counted`: kept up to date as the hunks go by, in one pass.
  let counted = 0;
  let beforeLines = 0;
  let afterLines = 0;
  let at = 0;
  while (at < changed.length) {
    const start = Math.max(0, changed[at]! - context);
    let last = changed[at]!;
    // Joined, as diff(1) joins them, when the unchanged lines between two changes are all context.
    while (at + 1 < changed.length && changed[at + 1]! - last - 1 <= 2 * context) last = changed[++at]!;
    at++;
    const end = Math.min(edits.length, last + context + 1);
    for (; counted < start; counted++) {
      if (edits[counted]!.kind !== '+') beforeLines++;
      if (edits[counted]!.kind !== '-') afterLines++;
    }
    const hunk = edits.slice(start, end);
    const removed = hunk.filter((edit) => edit.kind !== '+').length;
    const added = hunk.filter((edit) => edit.kind !== '-').length;
    lines.push(`@@ -${range(beforeLines, removed)} +${range(afterLines, added)} @@`);
    for (const edit of hunk) lines.push(edit.kind + edit.line);
  }
  return lines;
}

/** GNU diff's ranges: `start,length`, the length left out when it is 1, the line before when it is 0. */
function range(linesBefore: number, length: number): string {
  if (length === 1) return String(linesBefore + 1);
  return `${length === 0 ? linesBefore : linesBefore + 1},${length}`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
