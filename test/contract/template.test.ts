// contract/template.ts: a template body against the schema (types, ranges, enums, layouts,
// formulas), against the catalogs (report types, statistics, index names), and with the
// catalog's defaults filled in.
import { describe, expect, it } from 'vitest';
import { paperSizes, templateBodySchema, withoutServerOwnedFields, analysisTypes, CUSTOM_INDEX, presetSchema, storedPresetSchema, type Catalogs, applyTemplateDefaults, type TemplateBody } from '../../src/contract/index.js';
import { element, generalBody, issueAt, parsed, pathsOf, vegetationBody, bodyFor, catalogIssuesOf, entryOfCategory, entryWhere } from './fixtures.js';
import { presets, seedCatalogs } from '../../src/contract/default-catalogs.js';

// docs/decisions.md: "The template document" and "Errors": what POST/PUT accept, and the exact
// `issues[].path` of each rejection.

const schema = templateBodySchema;

describe('templateBodySchema: the body as a whole', () => {
  it('accepts a minimal body (name, analysisType, reportType, reportTypeId, reportCategory)', () => {
    const body = generalBody();
    expect(Object.keys(body).sort()).toEqual(['analysisType', 'name', 'reportCategory', 'reportType', 'reportTypeId']);
    expect(pathsOf(schema, body)).toEqual([]);
  });

  it.each(['name', 'analysisType', 'reportType', 'reportTypeId', 'reportCategory'])(
    'rejects a body without %s at that field',
    (field) => {
      const body: Record<string, unknown> = generalBody();
      delete body[field];
      expect(pathsOf(schema, body)).toEqual([field]);
    },
  );

  // Where docs/decisions.md are silent, a missing field reads the same whatever its type: "X is
  // required" (as for `name`, `margins.left`, validate-formula's `formula`), not "Invalid X",
  // which is the message for a value that was sent and is wrong.
  it.each(['name', 'analysisType', 'reportType', 'reportTypeId', 'reportCategory'])(
    'says a missing %s is required',
    (field) => {
      const body: Record<string, unknown> = generalBody();
      delete body[field];
      expect(issueAt(schema, body, field).message).toBe(`${field} is required`);
    },
  );

  it('rejects an unknown top-level field at the field name', () => {
    const body = generalBody({ colour: 'green' });
    expect(pathsOf(schema, body)).toEqual(['colour']);
    expect(issueAt(schema, body, 'colour').message).toContain('colour');
  });

  it('reports every unknown top-level field, each at its own name', () => {
    expect(pathsOf(schema, generalBody({ colour: 'green', owner: 'me' })).sort()).toEqual(['colour', 'owner']);
  });

  it('names each rejected field when several are wrong', () => {
    expect(pathsOf(schema, generalBody({ name: '', paperSize: 'b5', mapResolution: '150' })).sort()).toEqual([
      'mapResolution',
      'name',
      'paperSize',
    ]);
  });

  it('rejects a body that is not an object with one issue at the empty path', () => {
    expect(pathsOf(schema, null)).toEqual(['']);
    expect(pathsOf(schema, [])).toEqual(['']);
  });

  it('accepts the server-owned fields id, userId, createdAt, updatedAt and drops them', () => {
    const body = generalBody({
      id: 'tpl_123',
      userId: 'someone-else',
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: 'not even a date',
    });
    const data = parsed(schema, body);
    const kept = withoutServerOwnedFields(data);
    for (const field of ['id', 'userId', 'createdAt', 'updatedAt']) expect(kept).not.toHaveProperty(field);
    expect(kept).toEqual(generalBody());
  });
});

describe('templateBodySchema: name (1-200 chars)', () => {
  it('rejects an empty name at `name`', () => {
    expect(pathsOf(schema, generalBody({ name: '' }))).toEqual(['name']);
  });
  it('rejects 201 characters at `name`', () => {
    expect(pathsOf(schema, generalBody({ name: 'n'.repeat(201) }))).toEqual(['name']);
  });
  it('accepts 1 and 200 characters', () => {
    expect(pathsOf(schema, generalBody({ name: 'n' }))).toEqual([]);
    expect(pathsOf(schema, generalBody({ name: 'n'.repeat(200) }))).toEqual([]);
  });
  it('rejects a non-string name at `name`', () => {
    expect(pathsOf(schema, generalBody({ name: 7 }))).toEqual(['name']);
  });
});

describe('templateBodySchema: enumerated fields are named, their valid sets are not', () => {
  const cases = [
    { field: 'analysisType', value: 'weeds', valid: ['counting', 'replanting', 'path'] },
    { field: 'reportCategory', value: 'thermal', valid: ['general', 'vegetation_index'] },
    { field: 'paperSize', value: 'b5', valid: [...paperSizes] },
  ];
  it.each(cases)('rejects $field = $value at `$field` without listing the valid values', ({ field, value, valid }) => {
    const body = generalBody({ [field]: value });
    expect(pathsOf(schema, body)).toEqual([field]);
    const { message } = issueAt(schema, body, field);
    expect(message).toContain(field);
    for (const option of valid) expect(message).not.toContain(option);
  });

  it('says "Invalid paperSize" for an unknown paper size', () => {
    expect(issueAt(schema, generalBody({ paperSize: 'b5' }), 'paperSize').message).toBe('Invalid paperSize');
  });

  it.each(paperSizes)('accepts paperSize %s', (paperSize) => {
    expect(pathsOf(schema, generalBody({ paperSize }))).toEqual([]);
  });

  it('accepts each analysisType and reportCategory of the set', () => {
    for (const analysisType of ['counting', 'replanting', 'path']) {
      expect(pathsOf(schema, generalBody({ analysisType }))).toEqual([]);
    }
    for (const reportCategory of ['general', 'vegetation_index']) {
      expect(pathsOf(schema, generalBody({ reportCategory }))).toEqual([]);
    }
  });
});

describe('templateBodySchema: mapResolution (number, 72-1200)', () => {
  it('rejects a number sent as text at `mapResolution`, naming the field and not the reason', () => {
    const body = generalBody({ mapResolution: '150' });
    expect(pathsOf(schema, body)).toEqual(['mapResolution']);
    const { message } = issueAt(schema, body, 'mapResolution');
    expect(message).toContain('mapResolution');
    expect(message).not.toMatch(/expected/i);
    expect(message).not.toMatch(/number/i);
    expect(message).not.toMatch(/string/i);
    expect(message).not.toMatch(/required/i);
  });
  it.each([71, 1201, 0, -150])('rejects %s at `mapResolution`', (mapResolution) => {
    expect(pathsOf(schema, generalBody({ mapResolution }))).toEqual(['mapResolution']);
  });
  it.each([72, 150, 1200])('accepts %s', (mapResolution) => {
    expect(pathsOf(schema, generalBody({ mapResolution }))).toEqual([]);
  });
});

describe('templateBodySchema: margins (top, right, bottom, left, numbers >= 0)', () => {
  const margins = { top: 2, right: 2, bottom: 2, left: 2 };
  it('accepts four margins, zero included', () => {
    expect(pathsOf(schema, generalBody({ margins }))).toEqual([]);
    expect(pathsOf(schema, generalBody({ margins: { top: 0, right: 0, bottom: 0, left: 0 } }))).toEqual([]);
  });
  it('rejects a missing side at `margins.left`', () => {
    const body = generalBody({ margins: { top: 2, right: 2, bottom: 2 } });
    expect(pathsOf(schema, body)).toEqual(['margins.left']);
    expect(issueAt(schema, body, 'margins.left').message).toMatch(/required/);
  });
  it('rejects a negative side at `margins.top`', () => {
    expect(pathsOf(schema, generalBody({ margins: { ...margins, top: -1 } }))).toEqual(['margins.top']);
  });
  it('rejects a side sent as text at that side, naming it and not the reason', () => {
    const body = generalBody({ margins: { ...margins, right: '2' } });
    expect(pathsOf(schema, body)).toEqual(['margins.right']);
    expect(issueAt(schema, body, 'margins.right').message).not.toMatch(/expected|number|string/i);
  });
  it('rejects an unknown key inside margins at `margins.<key>`', () => {
    expect(pathsOf(schema, generalBody({ margins: { ...margins, gutter: 1 } }))).toEqual(['margins.gutter']);
  });
});

describe('templateBodySchema: saviL (number 0-1)', () => {
  it.each([-0.1, 1.1])('rejects %s at `saviL`', (saviL) => {
    expect(pathsOf(schema, generalBody({ saviL }))).toEqual(['saviL']);
  });
  it.each([0, 0.5, 1])('accepts %s', (saviL) => {
    expect(pathsOf(schema, generalBody({ saviL }))).toEqual([]);
  });
  it('rejects text at `saviL`', () => {
    expect(pathsOf(schema, generalBody({ saviL: '0.5' }))).toEqual(['saviL']);
  });
});

describe('templateBodySchema: selectedStatistics (unique keys)', () => {
  it('accepts distinct keys and an empty list', () => {
    expect(pathsOf(schema, generalBody({ selectedStatistics: ['totalPlants', 'plantsPerHectare'] }))).toEqual([]);
    expect(pathsOf(schema, generalBody({ selectedStatistics: [] }))).toEqual([]);
  });
  it('rejects a duplicate at the index of the duplicate', () => {
    const body = generalBody({ selectedStatistics: ['totalPlants', 'plantsPerHectare', 'totalPlants'] });
    expect(pathsOf(schema, body)).toEqual(['selectedStatistics.2']);
  });
  it('rejects a non-string item at its index', () => {
    expect(pathsOf(schema, generalBody({ selectedStatistics: ['totalPlants', 3] }))).toEqual(['selectedStatistics.1']);
  });
});

describe('templateBodySchema: layouts', () => {
  const layoutsWith = (elements: unknown[], orientation = 'portrait') => generalBody({ layouts: { [orientation]: { elements } } });

  it('accepts portrait only, landscape only, and both', () => {
    expect(pathsOf(schema, layoutsWith([element()]))).toEqual([]);
    expect(pathsOf(schema, layoutsWith([element()], 'landscape'))).toEqual([]);
    expect(
      pathsOf(schema, generalBody({ layouts: { portrait: { elements: [element()] }, landscape: { elements: [element()] } } })),
    ).toEqual([]);
  });

  it.each(['map', 'legend', 'title', 'statistics', 'text', 'logo', 'scale', 'northArrow'])('accepts element type %s', (type) => {
    expect(pathsOf(schema, layoutsWith([element({ type })]))).toEqual([]);
  });

  it('rejects x + width > 1 at the element width', () => {
    expect(pathsOf(schema, layoutsWith([element({ x: 0.5, width: 0.6 })]))).toEqual(['layouts.portrait.elements.0.width']);
  });

  it('names only fields that are wrong themselves: a box is not checked past a field refused on its own', () => {
    // x alone is out of range; width is fine on its own, so it is not named.
    expect(pathsOf(schema, layoutsWith([element({ x: 1.5, width: 0.1 })]))).toEqual(['layouts.portrait.elements.0.x']);
    expect(pathsOf(schema, layoutsWith([element({ y: -0.5, height: 0.9 })]))).toEqual(['layouts.portrait.elements.0.y']);
    // width alone is out of range: named once, for that.
    const tooWide = schema.safeParse(layoutsWith([element({ x: 0.8, width: 1.5 })]));
    expect(tooWide.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['layouts.portrait.elements.0.width', 'Too big: expected number to be <=1'],
    ]);
  });

  it('rejects y + height > 1 at the element height', () => {
    expect(pathsOf(schema, layoutsWith([element({ y: 0.7, height: 0.4 })]))).toEqual(['layouts.portrait.elements.0.height']);
  });

  it('accepts boxes that end exactly at 1 (decimal sums such as 0.1 + 0.9 included)', () => {
    expect(pathsOf(schema, layoutsWith([element({ x: 0.5, width: 0.5, y: 0, height: 1 })]))).toEqual([]);
    expect(pathsOf(schema, layoutsWith([element({ x: 0.1, width: 0.9, y: 0.3, height: 0.7 })]))).toEqual([]);
    expect(pathsOf(schema, layoutsWith([element({ x: 0, y: 0, width: 1, height: 1 })]))).toEqual([]);
  });

  it('rejects x < 0 at `layouts.landscape.elements.1.x`', () => {
    expect(pathsOf(schema, layoutsWith([element(), element({ x: -0.1 })], 'landscape'))).toEqual([
      'layouts.landscape.elements.1.x',
    ]);
  });

  it.each(['x', 'y', 'width', 'height'])('rejects %s above 1 at that coordinate', (coordinate) => {
    const box = { x: 0, y: 0, width: 0.5, height: 0.5, [coordinate]: 1.5 };
    expect(pathsOf(schema, layoutsWith([element(box)]))).toContain(`layouts.portrait.elements.0.${coordinate}`);
  });

  it('rejects a coordinate sent as text at that coordinate', () => {
    expect(pathsOf(schema, layoutsWith([element({ y: '0.1' })]))).toEqual(['layouts.portrait.elements.0.y']);
  });

  it('rejects an unknown element type at `.type` without listing the types', () => {
    const body = layoutsWith([element(), element({ type: 'chart' })]);
    expect(pathsOf(schema, body)).toEqual(['layouts.portrait.elements.1.type']);
    const { message } = issueAt(schema, body, 'layouts.portrait.elements.1.type');
    expect(message).not.toContain('northArrow');
  });

  it('rejects an element without a type at `.type`', () => {
    const { type: _type, ...untyped } = element();
    expect(pathsOf(schema, layoutsWith([untyped]))).toEqual(['layouts.portrait.elements.0.type']);
  });

  it('keeps other element properties as sent', () => {
    const title = element({ type: 'text', text: 'Lot 7', fontSize: 14, style: { bold: true } });
    const data = parsed(schema, layoutsWith([title]));
    expect(data.layouts?.portrait?.elements[0]).toEqual(title);
  });

  it('rejects `{}` (neither portrait nor landscape) at `layouts`', () => {
    expect(pathsOf(schema, generalBody({ layouts: {} }))).toEqual(['layouts']);
  });

  it('rejects an unknown orientation at `layouts.square`', () => {
    const layout = { elements: [element()] };
    expect(pathsOf(schema, generalBody({ layouts: { portrait: layout, square: layout } }))).toEqual(['layouts.square']);
    expect(pathsOf(schema, generalBody({ layouts: { square: layout } }))).toContain('layouts.square');
  });

  it('rejects a layout without elements at `layouts.portrait.elements`', () => {
    expect(pathsOf(schema, generalBody({ layouts: { portrait: {} } }))).toEqual(['layouts.portrait.elements']);
  });

  it('rejects an unknown key beside elements', () => {
    expect(pathsOf(schema, generalBody({ layouts: { portrait: { elements: [], grid: 12 } } }))).toEqual([
      'layouts.portrait.grid',
    ]);
  });
});

describe('templateBodySchema: colorScale', () => {
  const scale = (stops: unknown[]) => vegetationBody({ indexName: 'NDVI', colorScale: { stops } });
  const stop = (value: unknown, color: unknown = '#1a9850') => ({ value, color });

  it('accepts two or more ascending stops with #rrggbb colours (either case)', () => {
    expect(pathsOf(schema, scale([stop(0, '#a50026'), stop(1, '#006837')]))).toEqual([]);
    expect(pathsOf(schema, scale([stop(-0.2, '#A50026'), stop(0.3, '#FEE08B'), stop(0.9, '#006837')]))).toEqual([]);
  });

  it('rejects one stop at `colorScale.stops`', () => {
    expect(pathsOf(schema, scale([stop(0)]))).toEqual(['colorScale.stops']);
  });

  it('rejects no stops at `colorScale.stops`', () => {
    expect(pathsOf(schema, scale([]))).toEqual(['colorScale.stops']);
  });

  it('rejects values that do not ascend at the stop that breaks the order', () => {
    expect(pathsOf(schema, scale([stop(0.5), stop(0.2)]))).toEqual(['colorScale.stops.1.value']);
    expect(pathsOf(schema, scale([stop(0), stop(0.5), stop(0.4)]))).toEqual(['colorScale.stops.2.value']);
  });

  it.each(['#12345', 'red', '#1234567', '12a456', '#gggggg'])('rejects colour %s at `colorScale.stops.0.color`', (color) => {
    expect(pathsOf(schema, scale([stop(0, color), stop(1)]))).toEqual(['colorScale.stops.0.color']);
  });

  it('rejects a value sent as text at `colorScale.stops.0.value`', () => {
    expect(pathsOf(schema, scale([stop('0'), stop(1)]))).toEqual(['colorScale.stops.0.value']);
  });

  it('rejects unknown keys in the scale and in a stop', () => {
    expect(pathsOf(schema, vegetationBody({ indexName: 'NDVI', colorScale: { stops: [stop(0), stop(1)], name: 'x' } }))).toEqual([
      'colorScale.name',
    ]);
    expect(pathsOf(schema, scale([{ ...stop(0), label: 'soil' }, stop(1)]))).toEqual(['colorScale.stops.0.label']);
  });
});

describe('templateBodySchema: formula length', () => {
  it('rejects 2001 characters at `formula`', () => {
    const body = vegetationBody({ indexName: 'Custom_Index', formula: 'N'.repeat(2001) });
    expect(pathsOf(schema, body)).toEqual(['formula']);
  });
  it('accepts 2000 characters', () => {
    const body = vegetationBody({ indexName: 'Custom_Index', formula: 'N'.repeat(2000) });
    expect(pathsOf(schema, body)).toEqual([]);
  });
  it('rejects a non-string formula at `formula`', () => {
    expect(pathsOf(schema, vegetationBody({ indexName: 'Custom_Index', formula: 42 }))).toEqual(['formula']);
  });
});

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
