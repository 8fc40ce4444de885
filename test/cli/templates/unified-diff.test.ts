// The line diff `templates diff` prints: hunks checked against diffs worked out by hand, and
// its bound: inputs too far apart to search are shown as replaced whole, at once.
import { describe, expect, it } from 'vitest';
import { lineEdits, MAX_EDIT_LENGTH, unifiedHunks } from '../../../src/cli/commands/templates/support/unified-diff.js';
import { colourStopsTemplate } from './support.js';

const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');
const alphabet = 'abcdefghijklmnopqrst'.split('');

describe('unifiedHunks', () => {
  it('one changed line with three lines of context each side', () => {
    const after = alphabet.slice(0, 10).map((line) => (line === 'e' ? 'E' : line));
    expect(unifiedHunks(text(...alphabet.slice(0, 10)), text(...after))).toEqual(['@@ -2,7 +2,7 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h']);
  });

  it('changes more than six lines apart make two hunks; six or fewer, one', () => {
    const twoHunks = alphabet.map((line) => (line === 'b' ? 'B' : line === 'p' ? 'P' : line));
    expect(unifiedHunks(text(...alphabet), text(...twoHunks))).toEqual([
      '@@ -1,5 +1,5 @@', ' a', '-b', '+B', ' c', ' d', ' e',
      '@@ -13,7 +13,7 @@', ' m', ' n', ' o', '-p', '+P', ' q', ' r', ' s',
    ]);
    // b and i: six unchanged lines between them (c to h) join the hunks.
    const oneHunk = alphabet.map((line) => (line === 'b' ? 'B' : line === 'i' ? 'I' : line));
    expect(unifiedHunks(text(...alphabet), text(...oneHunk))[0]).toBe('@@ -1,12 +1,12 @@');
    expect(unifiedHunks(text(...alphabet), text(...oneHunk)).filter((line) => line.startsWith('@@'))).toHaveLength(1);
    // b and j: seven lines between, one more than both contexts.
    const sevenApart = alphabet.map((line) => (line === 'b' ? 'B' : line === 'j' ? 'J' : line));
    expect(unifiedHunks(text(...alphabet), text(...sevenApart)).filter((line) => line.startsWith('@@'))).toEqual(['@@ -1,5 +1,5 @@', '@@ -7,7 +7,7 @@']);
  });

  it('ranges as diff(1) writes them: a lone line without its length, an empty side at the line before', () => {
    expect(unifiedHunks(text('a'), text('b'))).toEqual(['@@ -1 +1 @@', '-a', '+b']);
    expect(unifiedHunks('', text('a', 'b'))).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(unifiedHunks(text('a', 'b'), '')).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
    expect(unifiedHunks(text('a', 'b', 'c', 'd', 'e'), text('a', 'b', 'c', 'd', 'e', 'f'))).toEqual(['@@ -3,3 +3,4 @@', ' c', ' d', ' e', '+f']);
    expect(unifiedHunks(text('a', 'b'), text('a', 'b'))).toEqual([]);
  });

  it('in a change, the removed lines come before the added ones', () => {
    expect(unifiedHunks(text('a', 'b', 'c'), text('a', 'X', 'Y', 'c'))).toEqual(['@@ -1,3 +1,4 @@', ' a', '-b', '+X', '+Y', ' c']);
  });
});

describe('lineEdits', () => {
  it('finds the shortest edit while it is within the cap', () => {
    expect(lineEdits(['a', 'b', 'c'], ['a', 'x', 'b', 'y', 'c'])).toEqual([
      { kind: ' ', line: 'a' },
      { kind: '+', line: 'x' },
      { kind: ' ', line: 'b' },
      { kind: '+', line: 'y' },
      { kind: ' ', line: 'c' },
    ]);
  });

  it('past the cap, shows the part between the common head and tail as replaced whole', () => {
    // Two lines added: an edit of length 2, past a cap of 1.
    expect(lineEdits(['a', 'b', 'c'], ['a', 'x', 'b', 'y', 'c'], 1)).toEqual([
      { kind: ' ', line: 'a' },
      { kind: '-', line: 'b' },
      { kind: '+', line: 'x' },
      { kind: '+', line: 'b' },
      { kind: '+', line: 'y' },
      { kind: ' ', line: 'c' },
    ]);
  });

  it('a template of 256 KiB with every value changed comes back as one hunk replacing its middle', () => {
    const before = colourStopsTemplate(0);
    const after = colourStopsTemplate(1);
    const [beforeLines, afterLines] = [before.split('\n').slice(0, -1), after.split('\n').slice(0, -1)];
    expect(before.length).toBeGreaterThan(256 * 1024);
    const head = beforeLines.findIndex((line, index) => line !== afterLines[index]);
    const tail = [...beforeLines].reverse().findIndex((line, index) => line !== afterLines[afterLines.length - 1 - index]);
    // Far past the cap: the stops' braces are common, every value and colour differs.
    expect(beforeLines.length - head - tail).toBeGreaterThan(10 * MAX_EDIT_LENGTH);

    const hunks = unifiedHunks(before, after);
    const start = head - 3;
    const end = beforeLines.length - tail + Math.min(tail, 3);
    const [removed, added] = [end - start, end - start - beforeLines.length + afterLines.length];
    expect(hunks[0]).toBe(`@@ -${start + 1},${removed} +${start + 1},${added} @@`);
    expect(hunks.slice(1)).toEqual([
      ...beforeLines.slice(start, head).map((line) => ` ${line}`),
      ...beforeLines.slice(head, beforeLines.length - tail).map((line) => `-${line}`),
      ...afterLines.slice(head, afterLines.length - tail).map((line) => `+${line}`),
      ...beforeLines.slice(beforeLines.length - tail, end).map((line) => ` ${line}`),
    ]);
  });
});
