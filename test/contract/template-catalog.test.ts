import { describe, expect, it } from 'vitest';
import {
  analysisTypes,
  CUSTOM_INDEX,
  presetSchema,
  storedPresetSchema,
  templateBodySchema,
  type Catalogs,
} from '../../src/contract/index.js';
import { presets, seedCatalogs } from '../../src/contract/default-catalogs.js';
import { bodyFor, catalogIssuesOf, entryOfCategory, entryWhere, generalBody, pathsOf, vegetationBody } from './fixtures.js';

// docs/decisions.md: "The template document", cross-field rules: each reported at the field that
// breaks it; an invented reportType or statistic names the field but not the valid set.

const allReportTypeKeys = analysisTypes.flatMap((type) => seedCatalogs.reportTypes[type].map((entry) => entry.key));
const allStatistics = analysisTypes.flatMap((type) => seedCatalogs.statistics[type]);
const pathsOfIssues = (body: unknown, catalogs?: Catalogs) => catalogIssuesOf(body, catalogs).map((issue) => issue.path);

describe('templateCatalogIssues: report type', () => {
  it('finds nothing wrong with a body built from a catalog entry of each analysis type', () => {
    for (const analysisType of analysisTypes) {
      for (const entry of seedCatalogs.reportTypes[analysisType]) {
        const extra = entry.reportCategory === 'vegetation_index' ? { indexName: 'NDVI' } : {};
        expect(pathsOfIssues(bodyFor(analysisType, entry, extra)), `${analysisType}/${entry.key}`).toEqual([]);
      }
    }
  });

  it('rejects a reportType that is a key of another analysis type at `reportType`, without the valid keys', () => {
    const pathEntry = entryWhere('path', (entry) => !seedCatalogs.reportTypes.counting.some((c) => c.key === entry.key));
    const body = { ...bodyFor('path', pathEntry), analysisType: 'counting' };
    const issues = catalogIssuesOf(body);
    expect(issues.map((issue) => issue.path)).toEqual(['reportType']);
    const { message } = issues[0]!;
    expect(message).toContain('reportType');
    for (const key of allReportTypeKeys) expect(message).not.toContain(key);
  });

  it('rejects an invented reportType at `reportType`', () => {
    expect(pathsOfIssues(generalBody({ reportType: 'weed_pressure' }))).toEqual(['reportType']);
  });

  it("rejects a reportTypeId that is not the entry's id at `reportTypeId`", () => {
    const other = entryWhere('counting', (entry) => entry.key !== generalBody().reportType);
    expect(pathsOfIssues(generalBody({ reportTypeId: other.id }))).toEqual(['reportTypeId']);
    expect(pathsOfIssues(generalBody({ reportTypeId: 'not-an-id' }))).toEqual(['reportTypeId']);
  });

  it("rejects a reportCategory that is not the entry's category at `reportCategory`", () => {
    // A general entry sent as vegetation_index (with an index, so that only the category is wrong).
    expect(pathsOfIssues(generalBody({ reportCategory: 'vegetation_index', indexName: 'NDVI' }))).toEqual(['reportCategory']);
    // A vegetation_index entry sent as general.
    expect(pathsOfIssues(vegetationBody({ reportCategory: 'general' }))).toEqual(['reportCategory']);
  });
});

describe('templateCatalogIssues: selectedStatistics', () => {
  it('accepts statistics of the analysis type', () => {
    const statistics = seedCatalogs.statistics.counting.slice(0, 3);
    expect(pathsOfIssues(generalBody({ selectedStatistics: statistics }))).toEqual([]);
  });

  it('rejects an unknown statistic at its index, without the valid statistics', () => {
    const [first] = seedCatalogs.statistics.counting;
    const issues = catalogIssuesOf(generalBody({ selectedStatistics: [first, 'weedsPerHectare'] }));
    expect(issues.map((issue) => issue.path)).toEqual(['selectedStatistics.1']);
    const { message } = issues[0]!;
    expect(message).toContain('selectedStatistics');
    for (const statistic of allStatistics) expect(message).not.toContain(statistic);
  });

  it('rejects a statistic of another analysis type', () => {
    const pathOnly = seedCatalogs.statistics.path.find((statistic) => !seedCatalogs.statistics.counting.includes(statistic))!;
    expect(pathsOfIssues(generalBody({ selectedStatistics: [pathOnly] }))).toEqual(['selectedStatistics.0']);
  });

  it('reports each unknown statistic', () => {
    const [first] = seedCatalogs.statistics.counting;
    expect(pathsOfIssues(generalBody({ selectedStatistics: ['a', first, 'b'] }))).toEqual([
      'selectedStatistics.0',
      'selectedStatistics.2',
    ]);
  });
});

describe('templateCatalogIssues: vegetation index', () => {
  it('accepts each catalog index other than Custom_Index without a formula', () => {
    for (const indexName of seedCatalogs.vegetationIndexDefaults.indexNames.filter((name) => name !== CUSTOM_INDEX)) {
      expect(pathsOfIssues(vegetationBody({ indexName })), indexName).toEqual([]);
    }
  });

  it('requires indexName when reportCategory is vegetation_index', () => {
    expect(pathsOfIssues(vegetationBody())).toEqual(['indexName']);
  });

  it('rejects an indexName that is not in the catalog at `indexName`', () => {
    expect(pathsOfIssues(vegetationBody({ indexName: 'GNDVI' }))).toEqual(['indexName']);
    // Case-sensitive: the catalog's names are the only accepted spellings.
    expect(pathsOfIssues(vegetationBody({ indexName: 'ndvi' }))).toEqual(['indexName']);
  });

  it('requires formula when indexName is Custom_Index', () => {
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX }))).toEqual(['formula']);
  });

  it('rejects a formula with an index other than Custom_Index at `formula`', () => {
    expect(pathsOfIssues(vegetationBody({ indexName: 'NDVI', formula: '(NIR - R) / (NIR + R + eps)' }))).toEqual(['formula']);
  });

  it('accepts a valid Custom_Index formula', () => {
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula: '(NIR - G) / (NIR + G + eps)' }))).toEqual([]);
  });

  it('rejects a formula the parser rejects at `formula` (division without eps)', () => {
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula: '(NIR - R) / (NIR + R)' }))).toEqual(['formula']);
  });

  it.each(['', '   ', 'NIR ^ 2', '2 NIR', 'nir + R', 'log(NIR)', 'sqrt(NIR, R)'])(
    'rejects the invalid formula %j at `formula`',
    (formula) => {
      const paths = pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula }));
      expect(paths.length).toBeGreaterThan(0);
      expect(new Set(paths)).toEqual(new Set(['formula']));
    },
  );

  it('accepts a 2000-character formula', () => {
    const formula = '(NIR - R) / (NIR + R + eps)'.padEnd(2000, ' ');
    expect(formula).toHaveLength(2000);
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula }))).toEqual([]);
  });

  it('requires saviL when the formula uses L, at `saviL`', () => {
    const formula = '(1 + L) * (NIR - R) / (NIR + R + L + eps)';
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula }))).toEqual(['saviL']);
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula, saviL: 0.5 }))).toEqual([]);
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula, saviL: 0 }))).toEqual([]);
  });

  it('checks the formula against the rules the catalog publishes', () => {
    const defaults = seedCatalogs.vegetationIndexDefaults;
    const withSwir: Catalogs = {
      ...seedCatalogs,
      vegetationIndexDefaults: {
        ...defaults,
        customFormula: { ...defaults.customFormula, allowedBands: [...defaults.customFormula.allowedBands, 'SWIR'] },
      },
    };
    const swir = vegetationBody({ indexName: CUSTOM_INDEX, formula: '(NIR - SWIR) / (NIR + SWIR + eps)' });
    // One issue per unknown name, each at `formula`.
    expect(new Set(pathsOfIssues(swir))).toEqual(new Set(['formula']));
    expect(pathsOfIssues(swir, withSwir)).toEqual([]);

    const noEpsRule: Catalogs = {
      ...seedCatalogs,
      vegetationIndexDefaults: {
        ...defaults,
        customFormula: { ...defaults.customFormula, rules: { divisionRequiresEps: false } },
      },
    };
    expect(pathsOfIssues(vegetationBody({ indexName: CUSTOM_INDEX, formula: '(NIR - R) / (NIR + R)' }), noEpsRule)).toEqual([]);
  });
});

describe('templateCatalogIssues: index fields on a general template', () => {
  it('rejects indexName at `indexName`', () => {
    expect(pathsOfIssues(generalBody({ indexName: 'NDVI' }))).toEqual(['indexName']);
  });
  it('rejects formula at `formula`', () => {
    expect(pathsOfIssues(generalBody({ formula: '(NIR - R) / (NIR + R + eps)' }))).toEqual(['formula']);
  });
  it('rejects colorScale at `colorScale`', () => {
    const colorScale = seedCatalogs.vegetationIndexDefaults.colorScales.NDVI;
    expect(pathsOfIssues(generalBody({ colorScale }))).toEqual(['colorScale']);
  });
});

describe('presets', () => {
  it('the seed has presets for every analysis type', () => {
    expect(new Set(presets.map((preset) => preset.analysisType))).toEqual(new Set(analysisTypes));
  });

  it.each(presets.map((preset) => [preset.id, preset] as const))(
    '%s: shape { id, name, description, analysisType, reportCategory, seedPayload }; the payload is a valid body',
    (_id, preset) => {
      expect(pathsOf(presetSchema, preset)).toEqual([]);
      expect(pathsOf(storedPresetSchema, preset)).toEqual([]);
      expect(pathsOf(templateBodySchema, preset.seedPayload)).toEqual([]);
      expect(catalogIssuesOf(preset.seedPayload)).toEqual([]);
      expect(preset.seedPayload.analysisType).toBe(preset.analysisType);
      expect(preset.seedPayload.reportCategory).toBe(preset.reportCategory);
    },
  );

  it('a preset payload with its name overwritten is still valid (the recommended flow)', () => {
    const entry = entryOfCategory('counting', 'general');
    const preset = presets.find((candidate) => candidate.seedPayload.reportTypeId === entry.id)!;
    expect(catalogIssuesOf({ ...preset.seedPayload, name: 'North field, lot 7' })).toEqual([]);
  });
});
