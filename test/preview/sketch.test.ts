import { describe, expect, it } from 'vitest';
import { presets } from '../../src/contract/default-catalogs.js';
import { layoutPage, sketchPage } from '../../src/preview/index.js';

const countingSummary = presets.find((preset) => preset.id === 'preset-counting-summary')!.seedPayload;

/** An A4 page with no margins, so printable cells are page cells. */
function page(elements: object[], extra: Record<string, unknown> = {}) {
  return layoutPage({ ...countingSummary, paperSize: 'a4', margins: { top: 0, right: 0, bottom: 0, left: 0 }, layouts: { portrait: { elements } }, ...extra });
}

describe('sketchPage', () => {
  it('draws the page as wide as the columns allow, its height by the paper (cells twice as tall as wide)', () => {
    const lines = sketchPage(page([]), { columns: 61 });
    expect(lines[0]).toBe('Plant count summary: a4 portrait, 21 × 29.7 cm');
    expect(lines[1]).toBe(`┌${'─'.repeat(58)}┐`);
    const height = Math.round((60 * 297) / 210 / 2);
    expect(lines[height]).toBe(`└${'─'.repeat(58)}┘`);
  });

  it("puts an element's box on the cells of its coordinates, labelled with its type", () => {
    // 41 cells across (0–40), 29 down (0–28): x 0.25–0.75 is cells 10–30, y 0.5–0.75 rows 14–21,
    // each far edge drawn one cell before (where a touching box would start).
    const lines = sketchPage(page([{ type: 'statistics', x: 0.25, y: 0.5, width: 0.5, height: 0.25 }]), { columns: 42 });
    const grid = lines.slice(1, 30);
    expect(grid).toHaveLength(29);
    expect(grid[14]!.slice(10, 30)).toBe(`┌statistics${'─'.repeat(8)}┐`);
    expect(grid[20]!.slice(10, 30)).toBe(`└${'─'.repeat(18)}┘`);
    expect(grid[15]![10]).toBe('│');
  });

  it('draws flagged elements heavy and marked !, and says so in the legend', () => {
    const lines = sketchPage(
      page([
        { type: 'map', x: 0, y: 0, width: 0.6, height: 0.6 },
        { type: 'logo', x: 0.5, y: 0.5, width: 0.4, height: 0.4 },
        { type: 'text', x: 0, y: 0.9, width: 0.3, height: 0.1 },
      ]),
      { columns: 60 },
    );
    const text = lines.join('\n');
    expect(text).toContain('┏!map');
    expect(text).toContain('┏!logo');
    expect(text).toContain('┌text');
    expect(lines.at(-2)! + lines.at(-1)!).toContain('━ ! overlaps or leaves the page');
  });

  it('writes the title with its index and the colour scale as a bar, painted, or as its range without colour', () => {
    const ndvi = presets.find((preset) => preset.id === 'preset-counting-vigor-ndvi')!.seedPayload;
    const layout = layoutPage(ndvi);
    const plain = sketchPage(layout, { columns: 100 }).join('\n');
    expect(plain).toContain('┌title: NDVI');
    expect(plain).toContain('NDVI -0.2 … 0.9');
    const painted = sketchPage(layout, { columns: 100, colour: true, paint: (text, colour) => `<${colour}>${text}</>` }).join('\n');
    expect(painted).toMatch(/<#a50026>█+<\/><#d73027>█+<\/>/);
    expect(painted).toContain('<#006837>█');
  });

  it('fits the rows it is given, with a line left for the prompt, however many lines its legend takes', () => {
    expect(sketchPage(page([]), { columns: 300, rows: 30 }).length).toBeLessThanOrEqual(29);
    // Every element type, each overlapping the next: a legend of several lines at 80 columns.
    const types = ['map', 'legend', 'title', 'statistics', 'text', 'logo', 'scale', 'northArrow'];
    const crowded = page(types.map((type, at) => ({ type, x: 0, y: at * 0.1, width: 0.5, height: 0.15 })), { paperSize: 'legal' });
    for (const rows of [45, 24]) {
      const lines = sketchPage(crowded, { columns: 80, rows });
      expect(lines.length, `${rows} rows`).toBeLessThanOrEqual(rows - 1);
      expect(lines[0]).toMatch(/^Plant count summary: legal portrait/);
    }
  });

  it('turns control characters in a name into replacement characters', () => {
    const lines = sketchPage(page([{ type: 'title', x: 0, y: 0, width: 1, height: 0.2 }], { name: 'Lot\u001b[2J 7\u009b' }), { columns: 60 });
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines.join('\n')).not.toContain('\u009b');
    expect(lines[0]).toContain('Lot\ufffd[2J 7\ufffd');
  });

  // Issue 28, item 6: `"width": 1e308` made a box of infinite size, whose edges the loops
  // below drew cell by cell forever (at 100% CPU, deaf to Ctrl-C).
  it.each([
    ['1e308 wide', { type: 'map', x: 0, y: 0, width: 1e308, height: 0.5 }],
    ['1e308 tall, from -1e308', { type: 'map', x: 0, y: -1e308, width: 0.5, height: 1e308 }],
    ['at 1e308', { type: 'map', x: 1e308, y: 1e308, width: 1e308, height: 1e308 }],
    ['from -1e308, -1e308 wide', { type: 'map', x: -1e308, y: 0, width: 1e308, height: 1e308 }],
  ])('a box of any size ends at the page: %s', (_what, element) => {
    const lines = sketchPage(page([element]), { columns: 61 });
    const height = Math.round((60 * 297) / 210 / 2) + 1;
    expect(lines.length).toBeLessThanOrEqual(1 + height + 2);
    expect(lines.slice(1, 1 + height).every((line) => [...line].length <= 60)).toBe(true);
  });

  it('a box that is not a finite number of cells still ends at the page', () => {
    const layout = page([]);
    const elements = [{ path: 'layouts.portrait.elements.0', type: 'map' as const, box: { x: -Infinity, y: 0, width: Infinity, height: Number.NaN }, flagged: true }];
    const lines = sketchPage({ ...layout, elements }, { columns: 61 });
    expect(lines.slice(1, -2).every((line) => [...line].length <= 60)).toBe(true);
  });
});
