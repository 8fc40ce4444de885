import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';

/** The three catalogs over real HTTP (src/server/routes/catalogs.ts): their shapes, and what they hold. */

const suite = inProcessServiceForSuite();

const get = (path: string, key = suite.account.apiKey) => api(suite.server, 'GET', path, { key });

describe('catalogs', () => {
  const types = ['counting', 'replanting', 'path'];

  it('report-types: an array of entries per analysis type', async () => {
    const response = await get('/api/v2/catalogs/report-types');
    expect(response.status).toBe(200);
    const catalog = response.body as Record<string, Array<Record<string, unknown>>>;
    for (const type of types) {
      expect(Array.isArray(catalog[type]), type).toBe(true);
      expect(catalog[type]!.length).toBeGreaterThan(0);
      for (const entry of catalog[type]!) {
        expect(entry.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
        expect(typeof entry.key).toBe('string');
        expect(entry.label).toEqual({ en: expect.any(String), es: expect.any(String) });
        expect(Array.isArray(entry.statistics)).toBe(true);
        expect(['general', 'vegetation_index']).toContain(entry.reportCategory);
      }
    }
  });

  it('statistics: exactly { counting, replanting, path }, each an array of keys; report types use only them', async () => {
    const response = await get('/api/v2/catalogs/statistics');
    expect(response.status).toBe(200);
    const statistics = response.body as Record<string, unknown>;
    expect(Object.keys(statistics).sort()).toEqual(['counting', 'path', 'replanting']);
    const reportTypes = (await get('/api/v2/catalogs/report-types')).body as Record<string, Array<{ statistics: string[] }>>;
    for (const type of types) {
      const keys = statistics[type] as string[];
      expect(Array.isArray(keys)).toBe(true);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(typeof key).toBe('string');
      expect(new Set(keys).size).toBe(keys.length);
      for (const entry of reportTypes[type]!) for (const statistic of entry.statistics) expect(keys).toContain(statistic);
    }
  });

  it('vegetation-index-defaults: the spec’s index names, defaults and customFormula', async () => {
    const response = await get('/api/v2/catalogs/vegetation-index-defaults');
    expect(response.status).toBe(200);
    const defaults = response.body as {
      indexNames: string[];
      colorScales: Record<string, { stops: Array<{ value: number; color: string }> }>;
      accentColors: Record<string, string>;
      layouts: Record<string, { elements: unknown[] }>;
      defaults: Record<string, unknown>;
      customFormula: Record<string, unknown>;
    };
    const names = ['NDVI', 'NDWI', 'EVI', 'SAVI', 'NDRE', 'LCI', 'Custom_Index'];
    expect([...defaults.indexNames].sort()).toEqual([...names].sort());
    for (const name of names) {
      const scale = defaults.colorScales[name];
      expect(scale, name).toBeDefined();
      expect(scale!.stops.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < scale!.stops.length; i++) expect(scale!.stops[i]!.value).toBeGreaterThan(scale!.stops[i - 1]!.value);
      for (const stop of scale!.stops) expect(stop.color).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(defaults.accentColors[name], name).toMatch(/^#[0-9a-fA-F]{6}$/);
    }
    expect(Object.keys(defaults.layouts).sort()).toEqual(['landscape', 'portrait']);
    for (const layout of Object.values(defaults.layouts)) expect(layout.elements.length).toBeGreaterThan(0);
    expect(defaults.defaults).toEqual({ paperSize: 'letter', mapResolution: 150, margins: { top: 2, right: 2, bottom: 2, left: 2 }, saviL: 0.5 });
    expect(defaults.customFormula).toEqual({
      allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
      allowedScalars: ['eps', 'L'],
      allowedFunctions: ['sqrt', 'abs'],
      rules: { divisionRequiresEps: true },
    });
  });
});
