// Across modules: renderTemplateSvg (page.ts, svg.ts, colour scales): the page, its problems, indices.
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { presets, vegetationIndexDefaults } from '../../src/contract/default-catalogs.js';
import { renderColourScaleSvg, renderTemplateSvg, type Orientation } from '../../src/preview/index.js';

const MM_PER_INCH = 25.4;

/** A valid general template with the given portrait elements. */
function template(elements: object[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const countingSummary = presets.find((preset) => preset.id === 'preset-counting-summary')!.seedPayload;
  return { ...structuredClone(countingSummary), layouts: { portrait: { elements } }, ...extra };
}

function attribute(tag: string, name: string): string {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  if (!match) throw new Error(`no ${name} in ${tag}`);
  return match[1]!;
}

function numbers(tag: string, ...names: string[]): number[] {
  return names.map((name) => Number(attribute(tag, name)));
}

/** The opening tag of the first element matching `pattern`. */
function tagOf(svg: string, pattern: RegExp): string {
  const match = pattern.exec(svg);
  if (!match) throw new Error(`no ${pattern} in ${svg}`);
  return match[0];
}

/** Each drawn element: its group's classes and its box (the group's first rect). */
function elementsOf(svg: string): { classes: string; path: string; box: number[]; stroke: string }[] {
  return [...svg.matchAll(/<g class="([^"]*)" data-path="([^"]*)"><rect[^>]*>/g)].map((match) => {
    const rect = /<rect[^>]*>/.exec(match[0])![0];
    return { classes: match[1]!, path: match[2]!, box: numbers(rect, 'x', 'y', 'width', 'height'), stroke: attribute(rect, 'stroke') };
  });
}

/** Fails when the SVG is not well-formed XML (resvg's parser is strict). */
function parses(svg: string): boolean {
  new Resvg(svg, { font: { loadSystemFonts: false } });
  return true;
}

describe('renderTemplateSvg: the page', () => {
  const papers: [string, number, number][] = [
    ['letter', 8.5 * MM_PER_INCH, 11 * MM_PER_INCH],
    ['legal', 8.5 * MM_PER_INCH, 14 * MM_PER_INCH],
    ['a4', 210, 297],
    ['a3', 297, 420],
  ];
  for (const [paperSize, shortSide, longSide] of papers) {
    for (const orientation of ['portrait', 'landscape'] as Orientation[]) {
      it(`draws ${paperSize} ${orientation} at its paper's proportions`, () => {
        const { svg } = renderTemplateSvg(template([], { paperSize, layouts: { portrait: { elements: [] }, landscape: { elements: [] } } }), {
          orientation,
          width: 500,
        });
        const [pageWidth, pageHeight] = orientation === 'portrait' ? [shortSide, longSide] : [longSide, shortSide];
        const root = tagOf(svg, /<svg[^>]*>/);
        expect(Number(attribute(root, 'width'))).toBe(500);
        expect(Math.abs(Number(attribute(root, 'height')) - (500 * pageHeight) / pageWidth)).toBeLessThanOrEqual(0.5);
        const page = tagOf(svg, /<rect class="page"[^>]*>/);
        expect(numbers(page, 'width', 'height').map((side) => Math.round(side * 10) / 10)).toEqual([pageWidth, pageHeight].map((side) => Math.round(side * 10) / 10));
        expect(attribute(root, 'viewBox')).toBe(`0 0 ${attribute(page, 'width')} ${attribute(page, 'height')}`);
      });
    }
  }

  it('draws the margins in centimetres as the printable area', () => {
    const { svg } = renderTemplateSvg(template([], { paperSize: 'a4', margins: { top: 1, right: 2, bottom: 3, left: 4 } }));
    const printable = tagOf(svg, /<rect class="printable"[^>]*>/);
    expect(numbers(printable, 'x', 'y', 'width', 'height')).toEqual([40, 10, 210 - 40 - 20, 297 - 10 - 30]);
  });

  it("places an element's box relative to the printable area", () => {
    const { svg, problems } = renderTemplateSvg(
      template([{ type: 'map', x: 0.25, y: 0.5, width: 0.5, height: 0.25 }], { paperSize: 'a4', margins: { top: 2, right: 1, bottom: 2, left: 1 } }),
    );
    expect(problems).toEqual([]);
    const [map] = elementsOf(svg);
    // Printable: 190 × 257 mm from (10, 20).
    expect(map!.classes).toBe('element element-map');
    expect(map!.box).toEqual([10 + 0.25 * 190, 20 + 0.5 * 257, 0.5 * 190, 0.25 * 257]);
  });

  it('gives each element type its own colour, none of them red', () => {
    const types = ['map', 'legend', 'title', 'statistics', 'text', 'logo', 'scale', 'northArrow'];
    const elements = types.map((type, index) => ({ type, x: 0, y: index / 8, width: 1, height: 1 / 8 }));
    const { svg, problems } = renderTemplateSvg(template(elements));
    expect(problems).toEqual([]);
    const strokes = elementsOf(svg).map((element) => element.stroke);
    expect(new Set(strokes).size).toBe(types.length);
    expect(strokes).not.toContain('#d62728');
  });

  it('uses the landscape layout and swaps the sides when asked', () => {
    const document = template([], { layouts: { portrait: { elements: [] }, landscape: { elements: [{ type: 'logo', x: 0, y: 0, width: 1, height: 1 }] } } });
    const portrait = renderTemplateSvg(document);
    const landscape = renderTemplateSvg(document, { orientation: 'landscape' });
    expect(elementsOf(portrait.svg)).toEqual([]);
    expect(elementsOf(landscape.svg).map((element) => element.path)).toEqual(['layouts.landscape.elements.0']);
    expect(attribute(tagOf(landscape.svg, /<svg[^>]*>/), 'data-orientation')).toBe('landscape');
  });

  it('says when the asked orientation has no layout, and draws the empty page', () => {
    const { svg, problems } = renderTemplateSvg(template([{ type: 'map', x: 0, y: 0, width: 1, height: 1 }]), { orientation: 'landscape' });
    expect(problems).toEqual(['The template has no landscape layout: the page is drawn empty.']);
    expect(tagOf(svg, /<rect class="page"[^>]*>/)).toContain('width="279.4"');
  });

  it('draws a template without layouts with the catalog default layout, as the service would store it', () => {
    const document = template([]);
    delete document.layouts;
    const { svg, problems } = renderTemplateSvg(document);
    expect(problems).toEqual([]);
    expect(elementsOf(svg).map((element) => element.classes)).toEqual(
      vegetationIndexDefaults.layouts.portrait.elements.map((element) => `element element-${element.type}`),
    );
  });
});

describe('renderTemplateSvg: problems', () => {
  it('marks overlapping elements red and names both', () => {
    const { svg, problems } = renderTemplateSvg(
      template([
        { type: 'map', x: 0, y: 0, width: 0.6, height: 0.6 },
        { type: 'legend', x: 0.5, y: 0.5, width: 0.3, height: 0.3 },
        { type: 'title', x: 0, y: 0.9, width: 1, height: 0.1 },
      ]),
    );
    expect(problems).toEqual(['The map at layouts.portrait.elements.0 overlaps the legend at layouts.portrait.elements.1.']);
    const [map, legend, title] = elementsOf(svg);
    expect([map!.stroke, legend!.stroke]).toEqual(['#d62728', '#d62728']);
    expect(map!.classes).toContain('problem');
    expect(title!.stroke).not.toBe('#d62728');
  });

  it('lists the first 50 overlaps and counts the rest', () => {
    const pile = Array.from({ length: 20 }, () => ({ type: 'text', x: 0, y: 0, width: 0.5, height: 0.5 }));
    const { svg, problems } = renderTemplateSvg(template(pile));
    // 20 boxes on one spot: 190 pairs.
    expect(problems).toHaveLength(51);
    expect(problems[0]).toBe('The text at layouts.portrait.elements.0 overlaps the text at layouts.portrait.elements.1.');
    expect(problems[50]).toBe('And 140 more overlaps.');
    expect(elementsOf(svg).every((element) => element.stroke === '#d62728')).toBe(true);
  });

  it('does not call boxes that only touch overlapping', () => {
    const { problems } = renderTemplateSvg(
      template([
        { type: 'map', x: 0, y: 0, width: 0.5, height: 1 },
        { type: 'statistics', x: 0.5, y: 0, width: 0.5, height: 1 },
      ]),
    );
    expect(problems).toEqual([]);
  });

  it('takes a north arrow or a scale inside the map as drawn on it on purpose, but not a legend', () => {
    const { problems } = renderTemplateSvg(
      template([
        { type: 'map', x: 0, y: 0, width: 1, height: 0.8 },
        { type: 'northArrow', x: 0.9, y: 0, width: 0.1, height: 0.1 },
        { type: 'scale', x: 0, y: 0.7, width: 0.3, height: 0.05 },
        { type: 'legend', x: 0.7, y: 0.6, width: 0.3, height: 0.2 },
        { type: 'northArrow', x: 0.5, y: 0.75, width: 0.1, height: 0.1 },
      ]),
    );
    expect(problems).toEqual([
      'The map at layouts.portrait.elements.0 overlaps the legend at layouts.portrait.elements.3.',
      'The map at layouts.portrait.elements.0 overlaps the north arrow at layouts.portrait.elements.4.',
    ]);
  });

  it('marks an element that leaves the page red, lists it with the validation issue, and shows it beyond the paper', () => {
    const { svg, problems } = renderTemplateSvg(template([{ type: 'statistics', x: 0.8, y: 0, width: 0.5, height: 0.2 }]), { width: 300 });
    expect(problems).toContain('The statistics at layouts.portrait.elements.0 leaves the page.');
    expect(problems).toContain('layouts.portrait.elements.0.width: x + width must not exceed 1.');
    const [statistics] = elementsOf(svg);
    expect(statistics!.stroke).toBe('#d62728');
    // Printable width 175.9 mm from 20 mm: the box ends at 20 + 1.3 × 175.9 mm, past the 215.9 mm paper.
    const [x, , width] = attribute(tagOf(svg, /<svg[^>]*>/), 'viewBox').split(' ').map(Number);
    expect(x).toBe(0);
    expect(width).toBeCloseTo(20 + 1.3 * 175.9, 1);
  });

  it('tells leaving the printable area from leaving the page', () => {
    // 2 cm margins on letter: 0.1 of the printable width past the edge is 17.6 mm, inside the 20 mm margin.
    const { problems } = renderTemplateSvg(template([{ type: 'logo', x: 0.95, y: 0, width: 0.15, height: 0.1 }]));
    expect(problems).toContain('The logo at layouts.portrait.elements.0 leaves the printable area.');
  });

  it('still draws a template that fails validation, with its issues', () => {
    const document = {
      name: 'Broken',
      paperSize: 'tabloid',
      margins: { top: 'two', right: 2, bottom: 2, left: 2 },
      layouts: { portrait: { elements: [{ type: 'map', x: 0.1, y: 0.1, width: 0.8, height: 0.5 }, { type: 'hologram', x: 0, y: 0.7, width: 0.2, height: 0.2 }, { type: 'text' }] } },
    };
    const { svg, problems } = renderTemplateSvg(document);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Invalid paperSize.',
        'Invalid margins.top.',
        'analysisType is required.',
        'Invalid layouts.portrait.elements.1.type.',
        'The element at layouts.portrait.elements.2 has no box (x, y, width and height from 0 to 1), so it is not drawn.',
      ]),
    );
    // The bad paper size and margin fall back to the catalog defaults: letter, 2 cm.
    expect(attribute(tagOf(svg, /<svg[^>]*>/), 'data-paper-size')).toBe('letter');
    expect(numbers(tagOf(svg, /<rect class="printable"[^>]*>/), 'x', 'y')).toEqual([20, 20]);
    expect(elementsOf(svg).map((element) => element.classes)).toEqual(['element element-map', 'element element-unknown']);
    expect(parses(svg)).toBe(true);
  });

  // Issue 28, item 6: the overlap check compares every pair; 100,000 elements took hours.
  it('draws the first 200 elements of a layout, as many as the service stores', () => {
    const pile = Array.from({ length: 300 }, () => ({ type: 'text', x: 0, y: 0, width: 2, height: 0.5 }));
    const { svg, problems } = renderTemplateSvg(template(pile));
    expect(elementsOf(svg)).toHaveLength(200);
    expect(problems).toContain('The portrait layout has 300 elements: only the first 200 are drawn.');
  });

  it('lists 50 of a document\'s validation issues and counts the rest', () => {
    const { problems } = renderTemplateSvg(template([], { selectedStatistics: Array.from({ length: 100_000 }, (_, index) => index) }));
    expect(problems).toHaveLength(51);
    expect(problems.at(-1)).toBe('And 99950 more problems.');
  });

  it('keeps a box of any size within a page beyond the paper', () => {
    const { svg } = renderTemplateSvg(template([{ type: 'map', x: -1e308, y: 0, width: 1e308, height: 1e308 }]));
    const [box] = elementsOf(svg);
    expect(box!.box.every(Number.isFinite)).toBe(true);
    expect(parses(svg)).toBe(true);
  });

  it('draws something for input that is not a template at all', () => {
    for (const input of [null, 42, 'text', [], { layouts: 'no' }]) {
      const { svg, problems } = renderTemplateSvg(input);
      expect(problems.length).toBeGreaterThan(0);
      expect(parses(svg)).toBe(true);
    }
  });

  it('checks the catalog rules too when given the catalogs', async () => {
    const { seedCatalogs } = await import('../../src/contract/default-catalogs.js');
    const document = template([], { reportType: 'no_such_report' });
    expect(renderTemplateSvg(document).problems).toEqual([]);
    expect(renderTemplateSvg(document, { catalogs: seedCatalogs }).problems).toEqual(['Invalid reportType.']);
  });
});

describe('renderTemplateSvg: vegetation indices', () => {
  const ndvi = presets.find((preset) => preset.id === 'preset-counting-vigor-ndvi')!.seedPayload;
  const gndvi = presets.find((preset) => preset.id === 'preset-path-vigor-gndvi-custom')!.seedPayload;

  it("draws the template's colour scale in the legend, its stops as a gradient with their values", () => {
    const colorScale = { stops: [{ value: -1, color: '#112233' }, { value: 0.25, color: '#445566' }, { value: 2, color: '#778899' }] };
    const { svg, problems } = renderTemplateSvg({ ...ndvi, colorScale });
    expect(problems).toEqual([]);
    const legend = /<g class="element element-legend"[^]*?<\/g>/.exec(svg)![0];
    const gradientId = /fill="url\(#([^)]+)\)"/.exec(legend)![1]!;
    const gradient = new RegExp(`<linearGradient id="${gradientId}"[^]*?</linearGradient>`).exec(svg)![0];
    const stops = [...gradient.matchAll(/<stop offset="([\d.]+)%" stop-color="([^"]+)"\/>/g)].map((stop) => [Number(stop[1]), stop[2]]);
    expect(stops).toEqual([
      [0, '#112233'],
      [(1.25 / 3) * 100, '#445566'].map((value) => (typeof value === 'number' ? Math.round(value * 100) / 100 : value)),
      [100, '#778899'],
    ]);
    const values = [...legend.matchAll(/<text class="colour-scale-value"[^>]*>([^<]*)<\/text>/g)].map((text) => text[1]);
    expect(values).toEqual(['-1', '0.25', '2']);
    expect(legend).toContain('legend: NDVI');
  });

  it("draws the catalog's scale for the index when the template has none", () => {
    const { colorScale: _scale, ...withoutScale } = structuredClone(ndvi);
    const { svg } = renderTemplateSvg(withoutScale);
    const colours = [...svg.matchAll(/stop-color="([^"]+)"/g)].map((stop) => stop[1]);
    expect(colours).toEqual(vegetationIndexDefaults.colorScales.NDVI!.stops.map((stop) => stop.color));
  });

  it('names the index in the title, and the formula for Custom_Index', () => {
    const title = (svg: string) => [.../<g class="element element-title"[^]*?<\/g>/.exec(svg)![0].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((text) => text[1]);
    expect(title(renderTemplateSvg(ndvi).svg)).toEqual(['title', 'Crop vigor (NDVI)', 'NDVI']);
    expect(title(renderTemplateSvg(gndvi, { orientation: 'landscape', width: 1200 }).svg)).toEqual([
      'title',
      'Vigor along paths (GNDVI formula)',
      'Custom_Index = (NIR - G) / (NIR + G + eps)',
    ]);
  });

  it('keeps text out of a thumbnail but still draws the scale', () => {
    const { svg } = renderTemplateSvg(ndvi, { thumbnail: true });
    expect(svg).not.toContain('<text');
    expect(svg).toContain('<linearGradient');
    expect(Number(attribute(tagOf(svg, /<svg[^>]*>/), 'width'))).toBeLessThan(200);
  });
});

describe('renderTemplateSvg: a self-contained, escaped document', () => {
  const hostile = '</text><script>alert(1)</script> & "Q" \'s\u0001';

  it('escapes a hostile template name and stays well-formed', () => {
    const { svg } = renderTemplateSvg(template([{ type: 'title', x: 0, y: 0, width: 1, height: 0.3 }], { name: hostile }), { width: 2000 });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('</text><script');
    expect(svg).toContain('&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Q&quot; &#39;s\ufffd');
    expect(parses(svg)).toBe(true);
  });

  it('refers to nothing outside itself', () => {
    for (const preset of presets) {
      for (const orientation of ['portrait', 'landscape'] as Orientation[]) {
        const { svg } = renderTemplateSvg(preset.seedPayload, { orientation });
        expect(svg).not.toMatch(/href|@import|url\((?!#)|<script|<foreignObject|<style/i);
        expect(parses(svg)).toBe(true);
      }
    }
  });

  it('draws every preset without a problem in the orientations it has', () => {
    for (const preset of presets) {
      for (const orientation of Object.keys(preset.seedPayload.layouts!) as Orientation[]) {
        expect({ preset: preset.id, orientation, problems: renderTemplateSvg(preset.seedPayload, { orientation }).problems }).toEqual({
          preset: preset.id,
          orientation,
          problems: [],
        });
      }
    }
  });
});

describe('renderColourScaleSvg', () => {
  it('draws a catalog scale with every stop and value', () => {
    const scale = vegetationIndexDefaults.colorScales.NDWI!;
    const svg = renderColourScaleSvg(scale, { width: 400, height: 60 });
    expect(numbers(tagOf(svg, /<svg[^>]*>/), 'width', 'height')).toEqual([400, 60]);
    expect([...svg.matchAll(/stop-color="([^"]+)"/g)].map((stop) => stop[1])).toEqual(scale.stops.map((stop) => stop.color));
    expect([...svg.matchAll(/<text class="colour-scale-value"[^>]*>([^<]*)</g)].map((text) => Number(text[1]))).toEqual(scale.stops.map((stop) => stop.value));
    expect(parses(svg)).toBe(true);
  });

  it('says so when there is no scale to draw', () => {
    const svg = renderColourScaleSvg({ stops: [{ value: 0, color: 'red' }] });
    expect(svg).toContain('no colour scale');
    expect(svg).not.toContain('<linearGradient');
  });

  it('gives two different scales different gradient ids, so both can sit in one page', () => {
    const id = (svg: string) => /<linearGradient id="([^"]+)"/.exec(svg)![1];
    expect(id(renderColourScaleSvg(vegetationIndexDefaults.colorScales.NDVI))).not.toBe(id(renderColourScaleSvg(vegetationIndexDefaults.colorScales.EVI)));
  });
});
