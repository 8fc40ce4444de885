/** One line of a line diff: kept (' '), removed ('-') or added ('+'). */
export interface LineEdit {
  kind: ' ' | '-' | '+';
  line: string;
}

/**
 * The shortest edit from `before` to `after`, line by line (Myers' O((N+M)D) algorithm), after
 * the common head and tail are set aside: a changed template is a few lines among many.
 */
export function lineEdits(before: readonly string[], after: readonly string[]): LineEdit[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const kept = (lines: readonly string[]) => lines.map((line): LineEdit => ({ kind: ' ', line }));
  return [...kept(before.slice(0, head)), ...middleEdits(a, b), ...kept(before.slice(before.length - tail))];
}

function middleEdits(a: readonly string[], b: readonly string[]): LineEdit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const frontier = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(frontier.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!) ? frontier[offset + k + 1]! : frontier[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      frontier[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the frontiers, from the end to the start.
  const edits: LineEdit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const previous = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && previous[offset + k - 1]! < previous[offset + k + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = d === 0 ? 0 : previous[offset + previousK]!;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      y--;
      edits.push({ kind: ' ', line: a[--x]! });
    }
    if (d === 0) break;
    if (down) edits.push({ kind: '+', line: b[--y]! });
    else edits.push({ kind: '-', line: a[--x]! });
  }
  return edits.reverse();
}

/** The hunks of a unified diff (`@@ -3,7 +3,7 @@` and its lines), `context` unchanged lines around each change. */
export function unifiedHunks(before: string, after: string, context = 3): string[] {
  const edits = lineEdits(splitLines(before), splitLines(after));
  const changed = edits.flatMap((edit, index) => (edit.kind === ' ' ? [] : [index]));
  const lines: string[] = [];
  let at = 0;
  while (at < changed.length) {
    const start = Math.max(0, changed[at]! - context);
    let last = changed[at]!;
    while (at + 1 < changed.length && changed[at + 1]! - last <= 2 * context) last = changed[++at]!;
    at++;
    const end = Math.min(edits.length, last + context + 1);
    const linesBefore = (kind: LineEdit['kind']) => edits.slice(0, start).filter((edit) => edit.kind === ' ' || edit.kind === kind).length;
    const hunk = edits.slice(start, end);
    const removed = hunk.filter((edit) => edit.kind !== '+').length;
    const added = hunk.filter((edit) => edit.kind !== '-').length;
    lines.push(`@@ -${range(linesBefore('-'), removed)} +${range(linesBefore('+'), added)} @@`);
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
