import { describe, expect, it } from 'vitest';
import { analysisTypes, CUSTOM_INDEX, formulaRulesOf, reportCategories, reportTypesCatalogSchema, statisticsCatalogSchema, storedPresetSchema, templateCatalogIssues, vegetationIndexDefaultsSchema, withoutServerOwnedFields } from '../../src/contract/index.js';
import { checkFormula } from '../../src/formula/check.js';
import { indexNames, presets, reportTypesCatalog, seedCatalogs, statisticsCatalog, vegetationIndexDefaults } from '../../src/contract/default-catalogs.js';

/** The catalogs and presets every new database is seeded with (src/contract/default-catalogs.ts), checked against the contract. */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('seed catalogs', () => {
  it('parse with the contract schemas', () => {
    expect(reportTypesCatalogSchema.safeParse(reportTypesCatalog).error).toBeUndefined();
    expect(statisticsCatalogSchema.safeParse(statisticsCatalog).error).toBeUndefined();
    expect(vegetationIndexDefaultsSchema.safeParse(vegetationIndexDefaults).error).toBeUndefined();
  });

  it('seedCatalogs bundles the three catalogs', () => {
    expect(seedCatalogs.reportTypes).toBe(reportTypesCatalog);
    expect(seedCatalogs.statistics).toBe(statisticsCatalog);
    expect(seedCatalogs.vegetationIndexDefaults).toBe(vegetationIndexDefaults);
  });

  it.each(analysisTypes)('%s has 8–12 unique camelCase statistics', (analysisType) => {
    const statistics = statisticsCatalog[analysisType];
    expect(statistics.length).toBeGreaterThanOrEqual(8);
    expect(statistics.length).toBeLessThanOrEqual(12);
    expect(new Set(statistics).size).toBe(statistics.length);
    for (const statistic of statistics) expect(statistic).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it.each(analysisTypes)('%s report types use only that analysis type’s statistics', (analysisType) => {
    const allowed = new Set(statisticsCatalog[analysisType]);
    for (const entry of reportTypesCatalog[analysisType]) {
      expect(entry.statistics.length).toBeGreaterThan(0);
      expect(entry.statistics.filter((statistic) => !allowed.has(statistic)), entry.key).toEqual([]);
      expect(new Set(entry.statistics).size, entry.key).toBe(entry.statistics.length);
    }
  });

  it.each(analysisTypes)('%s has 3–5 report types with snake_case keys unique within it', (analysisType) => {
    const entries = reportTypesCatalog[analysisType];
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.length).toBeLessThanOrEqual(5);
    const keys = entries.map((entry) => entry.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });

  it('report-type ids are unique v4 UUIDs across all analysis types', () => {
    const ids = analysisTypes.flatMap((analysisType) => reportTypesCatalog[analysisType].map((entry) => entry.id));
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(analysisTypes)('%s has one or more vegetation_index and two or more general report types', (analysisType) => {
    const categories = reportTypesCatalog[analysisType].map((entry) => entry.reportCategory);
    expect(categories.filter((category) => category === 'vegetation_index').length).toBeGreaterThanOrEqual(1);
    expect(categories.filter((category) => category === 'general').length).toBeGreaterThanOrEqual(2);
  });

  it('labels are filled in both languages and differ between them', () => {
    for (const analysisType of analysisTypes) {
      for (const { key, label } of reportTypesCatalog[analysisType]) {
        expect(label.en.trim(), key).not.toBe('');
        expect(label.es.trim(), key).not.toBe('');
        expect(label.es, key).not.toBe(label.en);
      }
    }
  });
});

describe('vegetation-index defaults', () => {
  it('list exactly the seven index names', () => {
    expect(vegetationIndexDefaults.indexNames).toEqual(['NDVI', 'NDWI', 'EVI', 'SAVI', 'NDRE', 'LCI', 'Custom_Index']);
    expect(vegetationIndexDefaults.indexNames).toEqual([...indexNames]);
  });

  it.each(indexNames)('%s has a 5–7 stop ascending colour scale and an accent colour', (indexName) => {
    const scale = vegetationIndexDefaults.colorScales[indexName];
    expect(scale).toBeDefined();
    const stops = scale!.stops;
    expect(stops.length).toBeGreaterThanOrEqual(5);
    expect(stops.length).toBeLessThanOrEqual(7);
    for (let i = 1; i < stops.length; i++) expect(stops[i]!.value).toBeGreaterThan(stops[i - 1]!.value);
    for (const stop of stops) expect(stop.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(vegetationIndexDefaults.accentColors[indexName]).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('colour scales span each index’s realistic range', () => {
    const ranges: Record<string, [number, number]> = {
      NDVI: [-0.2, 0.9],
      NDWI: [-0.5, 0.5],
      EVI: [-0.2, 1],
      SAVI: [-0.2, 0.9],
      NDRE: [0, 0.6],
      LCI: [0, 0.8],
      Custom_Index: [0, 1],
    };
    for (const [indexName, [low, high]] of Object.entries(ranges)) {
      const stops = vegetationIndexDefaults.colorScales[indexName]!.stops;
      expect([stops[0]!.value, stops.at(-1)!.value], indexName).toEqual([low, high]);
    }
  });

  it('has no scale or accent colour for an index it does not list', () => {
    expect(Object.keys(vegetationIndexDefaults.colorScales).sort()).toEqual([...indexNames].sort());
    expect(Object.keys(vegetationIndexDefaults.accentColors).sort()).toEqual([...indexNames].sort());
  });

  it('layouts place every element inside the page with room for the usual parts', () => {
    for (const orientation of ['portrait', 'landscape'] as const) {
      const elements = vegetationIndexDefaults.layouts[orientation].elements;
      // Exact sums, without the schema's floating-point tolerance.
      for (const { type, x, y, width, height } of elements) {
        expect(x + width, `${orientation} ${type}`).toBeLessThanOrEqual(1);
        expect(y + height, `${orientation} ${type}`).toBeLessThanOrEqual(1);
        expect(width * height, `${orientation} ${type}`).toBeGreaterThan(0);
      }
      const types = elements.map((element) => element.type).sort();
      expect(types).toEqual(['legend', 'logo', 'map', 'northArrow', 'scale', 'statistics', 'title']);
    }
  });

  it('carries the defaults and formula rules the spec names', () => {
    expect(vegetationIndexDefaults.defaults).toEqual({
      paperSize: 'letter',
      mapResolution: 150,
      margins: { top: 2, right: 2, bottom: 2, left: 2 },
      saviL: 0.5,
    });
    expect(vegetationIndexDefaults.customFormula).toEqual({
      allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
      allowedScalars: ['eps', 'L'],
      allowedFunctions: ['sqrt', 'abs'],
      rules: { divisionRequiresEps: true },
    });
  });
});

describe('presets', () => {
  it('number 8–10 with unique ids', () => {
    expect(presets.length).toBeGreaterThanOrEqual(8);
    expect(presets.length).toBeLessThanOrEqual(10);
    const ids = presets.map((preset) => preset.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^preset(-[a-z0-9]+)+$/);
  });

  it.each(presets.map((preset) => [preset.id, preset] as const))(
    '%s is stored-preset valid and has no catalog issues',
    (_id, preset) => {
      const parsed = storedPresetSchema.safeParse(preset);
      expect(parsed.error).toBeUndefined();
      const body = withoutServerOwnedFields(parsed.data!.seedPayload);
      expect(templateCatalogIssues(body, seedCatalogs)).toEqual([]);
      // The preset's own summary agrees with the body it seeds.
      expect(preset.analysisType).toBe(body.analysisType);
      expect(preset.reportCategory).toBe(body.reportCategory);
      expect(body.name).toBe(preset.name);
      for (const field of ['layouts', 'paperSize', 'mapResolution', 'margins', 'selectedStatistics'] as const) {
        expect(body[field], `${preset.id} ${field}`).toBeDefined();
      }
    },
  );

  it('select only statistics their report type offers', () => {
    for (const preset of presets) {
      const body = storedPresetSchema.parse(preset).seedPayload;
      const entry = reportTypesCatalog[body.analysisType].find((candidate) => candidate.key === body.reportType)!;
      const offered = new Set(entry.statistics);
      expect((body.selectedStatistics ?? []).filter((statistic) => !offered.has(statistic)), preset.id).toEqual([]);
    }
  });

  it('cover every analysis type and category pair where the catalog has one', () => {
    for (const analysisType of analysisTypes) {
      for (const reportCategory of reportCategories) {
        const found = presets.some((preset) => preset.analysisType === analysisType && preset.reportCategory === reportCategory);
        expect(found, `${analysisType}/${reportCategory}`).toBe(true);
      }
    }
  });

  it('include an NDVI preset, a Custom_Index with L and saviL 0.5, and a Custom_Index without L', () => {
    const payloads = presets.map((preset) => storedPresetSchema.parse(preset).seedPayload);
    expect(payloads.some((payload) => payload.indexName === 'NDVI')).toBe(true);
    const custom = payloads.filter((payload) => payload.indexName === CUSTOM_INDEX);
    const withL = custom.filter((payload) => checkFormula(payload.formula!).usesL);
    expect(withL.length).toBeGreaterThanOrEqual(1);
    for (const payload of withL) expect(payload.saviL).toBe(0.5);
    expect(custom.some((payload) => !checkFormula(payload.formula!).usesL)).toBe(true);
  });

  it('Custom_Index formulas pass the formula engine under the published rules', () => {
    const rules = formulaRulesOf(vegetationIndexDefaults);
    for (const preset of presets) {
      const payload = storedPresetSchema.parse(preset).seedPayload;
      if (payload.reportCategory !== 'vegetation_index') {
        expect(payload.indexName, preset.id).toBeUndefined();
        continue;
      }
      if (payload.indexName !== CUSTOM_INDEX) {
        expect(payload.formula, preset.id).toBeUndefined();
        continue;
      }
      const check = checkFormula(payload.formula!, rules);
      expect(check.errors, preset.id).toEqual([]);
      expect(check.valid, preset.id).toBe(true);
      if (check.usesL) expect(payload.saviL, preset.id).toBeTypeOf('number');
    }
  });

  it('do not share mutable objects between payloads or with the catalog', () => {
    const objects = new Set<unknown>([
      vegetationIndexDefaults.layouts,
      vegetationIndexDefaults.layouts.portrait,
      vegetationIndexDefaults.layouts.landscape,
      ...Object.values(vegetationIndexDefaults.colorScales),
      vegetationIndexDefaults.defaults.margins,
    ]);
    for (const preset of presets) {
      const payload = preset.seedPayload;
      for (const value of [payload.layouts, payload.margins, payload.colorScale, payload.selectedStatistics]) {
        if (value === undefined) continue;
        expect(objects.has(value), preset.id).toBe(false);
        objects.add(value);
      }
    }
  });
});
