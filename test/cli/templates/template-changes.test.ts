// What changed in a template by element and field (the list above each template's diff in
// `templates diff` and the Markdown plan), and which elements a plan's pictures outline: pure.
import { describe, expect, it } from 'vitest';
import { changedElements, elementPairs, fieldChanges, statisticsChange } from '../../../src/cli/commands/templates/support/template-changes.js';

const map = { type: 'map', x: 0.05, y: 0.2, width: 0.9, height: 0.8 };
const legend = { type: 'legend', x: 0.05, y: 0.02, width: 0.3, height: 0.1 };
const text = (x: number) => ({ type: 'text', x, y: 0.9, width: 0.2, height: 0.05, text: 'Lot 7' });
const landscape = (...elements: object[]) => ({ layouts: { landscape: { elements } } });

describe('fieldChanges', () => {
  it("names the element by its type and the field that changed, as terraform's ~ lines do: only a map's height", () => {
    expect(fieldChanges(landscape(legend, map), landscape(legend, { ...map, height: 0.75 }))).toEqual(['layouts.landscape map: height 0.8 → 0.75']);
  });

  it('lists what a selection of statistics loses and gains, not its positions', () => {
    const before = { selectedStatistics: ['plantCount', 'replantingAreaHa'] };
    expect(fieldChanges(before, { selectedStatistics: ['plantCount', 'replantPlantsNeeded'] })).toEqual(['selectedStatistics: − replantingAreaHa, + replantPlantsNeeded']);
    expect(fieldChanges(before, { selectedStatistics: ['replantingAreaHa', 'plantCount'] })).toEqual(['selectedStatistics: the same, in another order']);
  });

  it('words as they are, text quoted, structures cut short; fields added and removed with + and −', () => {
    expect(fieldChanges({ name: 'Lot 7', paperSize: 'letter', mapResolution: 150, formula: 'NIR/R' }, { name: 'Lot 7 (b)', paperSize: 'a4', mapResolution: 300, saviL: 0.5 })).toEqual([
      'name: "Lot 7" → "Lot 7 (b)"',
      'paperSize: letter → a4',
      'mapResolution: 150 → 300',
      'saviL: + 0.5',
      'formula: − "NIR/R"',
    ]);
    expect(fieldChanges({ margins: { top: 2, right: 2, bottom: 2, left: 2 } }, { margins: { top: 3, right: 2, bottom: 2, left: 1.5 } })).toEqual(['margins: top 2 → 3, left 2 → 1.5']);
  });

  it('elements added and removed, a layout added or removed, and the second of a type numbered', () => {
    expect(fieldChanges(landscape(map, text(0.1), text(0.5)), landscape({ ...map, x: 0.1 }, text(0.1), text(0.6), legend))).toEqual([
      'layouts.landscape map: x 0.05 → 0.1',
      'layouts.landscape text 2: x 0.5 → 0.6',
      'layouts.landscape: + legend at x 0.05, y 0.02, width 0.3, height 0.1',
    ]);
    expect(fieldChanges(landscape(map, legend), landscape(map))).toEqual(['layouts.landscape: − legend']);
    expect(fieldChanges(landscape(map), { layouts: { ...landscape(map).layouts, portrait: { elements: [map, legend] } } })).toEqual(['layouts.portrait: + a layout of 2 elements']);
    expect(fieldChanges({ layouts: { portrait: { elements: [map] }, landscape: { elements: [map] } } }, landscape(map))).toEqual(['layouts.portrait: − the layout']);
    // A property other than the box is a field like any other.
    expect(fieldChanges(landscape(text(0.1)), landscape({ ...text(0.1), text: 'Lot 8' }))).toEqual(['layouts.landscape text: text "Lot 7" → "Lot 8"']);
  });

  it('a colour scale by stop, and stops added at the end', () => {
    const stops = [
      { value: 0, color: '#ff0000' },
      { value: 1, color: '#00ff00' },
    ];
    expect(fieldChanges({ colorScale: { stops } }, { colorScale: { stops: [stops[0], { value: 0.9, color: '#00ff00' }, { value: 1, color: '#0000ff' }] } })).toEqual([
      'colorScale.stops.1: value 1 → 0.9',
      'colorScale.stops: + 1 at the end (3 in all)',
    ]);
  });

  it('past the limit, the last line says how many more there are', () => {
    const before = { colorScale: { stops: Array.from({ length: 100 }, (_, value) => ({ value, color: '#000000' })) } };
    const after = { colorScale: { stops: Array.from({ length: 100 }, (_, value) => ({ value: value + 0.5, color: '#000000' })) } };
    const lines = fieldChanges(before, after);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe('colorScale.stops.0: value 0 → 0.5');
    expect(lines[19]).toBe('… and 81 more changes');
  });
});

describe('the elements a change touches', () => {
  it('pairs elements by type and occurrence, so a moved element is still itself', () => {
    const pairs = elementPairs(landscape(legend, map), landscape(map, { ...legend, x: 0.6 }), 'landscape');
    expect(pairs.map((pair) => [pair.label, pair.before?.index, pair.after?.index])).toEqual([
      ['map', 1, 0],
      ['legend', 0, 1],
    ]);
  });

  it('outlines, before, what is removed or changed, and after, what is added or changed', () => {
    expect(changedElements(landscape(legend, map, text(0.1)), landscape(legend, { ...map, height: 0.5 }, legend), 'landscape')).toEqual({
      before: ['layouts.landscape.elements.1', 'layouts.landscape.elements.2'],
      after: ['layouts.landscape.elements.1', 'layouts.landscape.elements.2'],
    });
    expect(changedElements(landscape(map), landscape(map), 'landscape')).toEqual({ before: [], after: [] });
    expect(changedElements(undefined, landscape(map), 'landscape')).toEqual({ before: [], after: ['layouts.landscape.elements.0'] });
  });

  it('the statistics a selection gains and loses', () => {
    expect(statisticsChange({ selectedStatistics: ['a', 'b'] }, { selectedStatistics: ['b', 'c'] })).toEqual({ added: ['c'], removed: ['a'] });
    expect(statisticsChange({}, { selectedStatistics: ['a'] })).toEqual({ added: ['a'], removed: [] });
  });
});
