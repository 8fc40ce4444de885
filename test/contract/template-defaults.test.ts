import { describe, expect, it } from 'vitest';
import {
  applyTemplateDefaults,
  CUSTOM_INDEX,
  templateBodySchema,
  withoutServerOwnedFields,
  type TemplateBody,
} from '../../src/contract/index.js';
import { seedCatalogs } from '../../src/contract/default-catalogs.js';
import { element, generalBody, parsed, vegetationBody } from './fixtures.js';

// docs/decisions.md: "Responses" (PUT is a full replacement: what the body leaves out is back to
// its default, never merged) and "The template document" (colorScale defaults to the
// catalog's scale for the index). The service spec gives the catalog defaults: letter,
// 150, margins of 2.

const defaults = seedCatalogs.vegetationIndexDefaults;
const bodyOf = (value: unknown): TemplateBody => withoutServerOwnedFields(parsed(templateBodySchema, value));
const filled = (value: unknown) => applyTemplateDefaults(bodyOf(value), defaults);

describe('applyTemplateDefaults', () => {
  it('fills what a minimal body leaves out with the catalog defaults', () => {
    const template = filled(generalBody());
    expect(template.paperSize).toBe('letter');
    expect(template.mapResolution).toBe(150);
    expect(template.margins).toEqual({ top: 2, right: 2, bottom: 2, left: 2 });
    expect(template.selectedStatistics).toEqual([]);
    expect(template.layouts).toEqual(defaults.layouts);
    expect(template.layouts).not.toBe(defaults.layouts);
  });

  it('keeps the five required fields as sent', () => {
    const body = generalBody();
    expect(filled(body)).toMatchObject(body);
  });

  it('gives a general template no colorScale', () => {
    expect(filled(generalBody())).not.toHaveProperty('colorScale');
  });

  it.each(defaults.indexNames)("gives a %s template the catalog's scale for that index", (indexName) => {
    const extra = indexName === CUSTOM_INDEX ? { formula: '(NIR - G) / (NIR + G + eps)' } : {};
    const template = filled(vegetationBody({ indexName, ...extra }));
    expect(template.colorScale).toEqual(defaults.colorScales[indexName]);
  });

  it('keeps everything the body gave', () => {
    const layouts = { portrait: { elements: [element({ type: 'text', text: 'Lot 7', fontSize: 12 })] } };
    const colorScale = { stops: [{ value: 0, color: '#000000' }, { value: 1, color: '#ffffff' }] };
    const body = vegetationBody({
      indexName: 'NDVI',
      selectedStatistics: ['meanNdvi'],
      layouts,
      paperSize: 'a3',
      mapResolution: 300,
      margins: { top: 1, right: 0, bottom: 1.5, left: 0 },
      saviL: 0.25,
      colorScale,
    });
    expect(filled(body)).toEqual(body);
  });

  it('does not merge a partial layouts object with the defaults', () => {
    const layouts = { portrait: { elements: [element()] } };
    const template = filled(generalBody({ layouts }));
    expect(template.layouts).toEqual(layouts);
    expect(template.layouts).not.toHaveProperty('landscape');
  });

  it('does not merge partial page settings either', () => {
    const template = filled(generalBody({ paperSize: 'legal' }));
    expect(template.paperSize).toBe('legal');
    expect(template.mapResolution).toBe(150);
  });

  it('does not mutate the catalogs when the result is changed', () => {
    const before = structuredClone(seedCatalogs);
    const general = filled(generalBody());
    general.layouts!.portrait!.elements[0]!.x = 0.99;
    general.layouts!.portrait!.elements.push({ type: 'text', x: 0, y: 0, width: 0.1, height: 0.1 });
    general.layouts!.landscape!.elements.length = 0;
    general.margins!.top = 99;
    general.selectedStatistics!.push('totalPlants');
    const vegetation = filled(vegetationBody({ indexName: 'NDVI' }));
    vegetation.colorScale!.stops[0]!.color = '#000000';
    vegetation.colorScale!.stops.pop();
    expect(seedCatalogs).toEqual(before);
    // And a second template is not affected by the first one's changes.
    expect(filled(generalBody()).layouts).toEqual(before.vegetationIndexDefaults.layouts);
    expect(filled(generalBody()).margins).toEqual({ top: 2, right: 2, bottom: 2, left: 2 });
  });
});
