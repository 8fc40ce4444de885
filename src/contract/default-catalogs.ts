import type {
  AnalysisType,
  Catalogs,
  ColorScale,
  Layouts,
  Preset,
  ReportCategory,
  ReportTypesCatalog,
  StatisticsCatalog,
  TemplateBodyInput,
  VegetationIndexDefaults,
} from './index.js';
import { defaultFormulaRules } from '../formula/rules.js';

/**
 * What a new database starts with. Ids are fixed literals so that a report type keeps its
 * id across databases: a template exported from one service still names the same entry
 * in another.
 */

export const statisticsCatalog: StatisticsCatalog = {
  counting: [
    'totalPlants',
    'plantsPerHectare',
    'plantsPerLinearMeter',
    'emergenceRate',
    'averageSpacingCm',
    'coefficientOfVariation',
    'doublesPct',
    'skipsPct',
    'countedAreaHa',
    'meanNdvi',
    'ndviStdDev',
    'lowVigorAreaPct',
  ],
  replanting: [
    'gapCount',
    'gapLengthM',
    'averageGapLengthM',
    'longestGapM',
    'failureRatePct',
    'affectedRowsPct',
    'replantPlantsNeeded',
    'seedUnitsNeeded',
    'replantingAreaHa',
    'estimatedReplantCost',
    'meanIndexValue',
    'lowVigorAreaPct',
  ],
  path: [
    'pathCount',
    'pathLengthM',
    'pathCoveragePct',
    'overlapPct',
    'skippedAreaHa',
    'crossTrackErrorCm',
    'maxCrossTrackErrorCm',
    'rowSpacingCm',
    'headlandAreaHa',
    'traffickedAreaPct',
    'meanIndexValue',
    'indexStdDev',
  ],
};

export const reportTypesCatalog: ReportTypesCatalog = {
  counting: [
    {
      id: '5f40603a-f4d7-4e69-801d-4504cd00c667',
      key: 'plant_count_summary',
      label: { en: 'Plant count summary', es: 'Resumen de conteo de plantas' },
      statistics: ['totalPlants', 'plantsPerHectare', 'emergenceRate', 'countedAreaHa'],
      reportCategory: 'general',
    },
    {
      id: 'f830214e-4a79-49d4-b97f-7490a4bc3a24',
      key: 'stand_density_map',
      label: { en: 'Stand density map', es: 'Mapa de densidad de siembra' },
      statistics: ['plantsPerHectare', 'plantsPerLinearMeter', 'coefficientOfVariation', 'countedAreaHa'],
      reportCategory: 'general',
    },
    {
      id: '8f0269bb-d41c-40f4-9836-9ade10f5701f',
      key: 'spacing_uniformity',
      label: { en: 'Plant spacing uniformity', es: 'Uniformidad de distanciamiento entre plantas' },
      statistics: ['averageSpacingCm', 'coefficientOfVariation', 'doublesPct', 'skipsPct', 'plantsPerLinearMeter'],
      reportCategory: 'general',
    },
    {
      id: '59acdf2b-03bf-48c6-b5be-3c792c21b29b',
      key: 'vigor_ndvi',
      label: { en: 'Crop vigor (NDVI)', es: 'Vigor del cultivo (NDVI)' },
      statistics: ['meanNdvi', 'ndviStdDev', 'lowVigorAreaPct', 'plantsPerHectare'],
      reportCategory: 'vegetation_index',
    },
  ],
  replanting: [
    {
      id: 'c7965e11-c137-4654-a173-94dca3304962',
      key: 'replanting_gaps',
      label: { en: 'Gaps to replant', es: 'Fallas para resiembra' },
      statistics: ['gapCount', 'gapLengthM', 'averageGapLengthM', 'longestGapM', 'failureRatePct'],
      reportCategory: 'general',
    },
    {
      id: 'c468dd8f-1b96-4da1-ae96-3eb8118e86db',
      key: 'replanting_failures_by_row',
      label: { en: 'Failures by row', es: 'Fallas por surco' },
      statistics: ['affectedRowsPct', 'gapCount', 'longestGapM', 'failureRatePct'],
      reportCategory: 'general',
    },
    {
      id: '1d4b7764-b682-4019-943d-a79798d435f4',
      key: 'replanting_cost_estimate',
      label: { en: 'Replanting cost estimate', es: 'Estimación de costo de resiembra' },
      statistics: ['replantPlantsNeeded', 'seedUnitsNeeded', 'replantingAreaHa', 'estimatedReplantCost'],
      reportCategory: 'general',
    },
    {
      id: '33cfbafa-66a1-4e80-a558-c94cb2d9d0ca',
      key: 'replanting_vigor_zones',
      label: { en: 'Replanting zones by vigor', es: 'Zonas de resiembra según vigor' },
      statistics: ['meanIndexValue', 'lowVigorAreaPct', 'replantingAreaHa', 'failureRatePct'],
      reportCategory: 'vegetation_index',
    },
  ],
  path: [
    {
      id: '35742c53-588d-4af9-be6b-b1fcdfd3cdee',
      key: 'path_coverage',
      label: { en: 'Path coverage', es: 'Cobertura de recorridos' },
      statistics: ['pathCount', 'pathLengthM', 'pathCoveragePct', 'overlapPct', 'skippedAreaHa'],
      reportCategory: 'general',
    },
    {
      id: '1b7009f4-5343-47b0-b31a-1afafe84a94e',
      key: 'path_deviation',
      label: { en: 'Path deviation from rows', es: 'Desviación de recorridos respecto de los surcos' },
      statistics: ['crossTrackErrorCm', 'maxCrossTrackErrorCm', 'rowSpacingCm', 'pathLengthM'],
      reportCategory: 'general',
    },
    {
      id: '65c2c1f8-2148-4b52-89c3-3734bb305626',
      key: 'machinery_traffic',
      label: { en: 'Machinery traffic', es: 'Tránsito de maquinaria' },
      statistics: ['traffickedAreaPct', 'headlandAreaHa', 'pathLengthM', 'overlapPct'],
      reportCategory: 'general',
    },
    {
      id: '1732ea4c-956b-4a0d-8e6f-6cb5d90a22af',
      key: 'path_vigor_profile',
      label: { en: 'Vegetation index along paths', es: 'Índice de vegetación a lo largo de los recorridos' },
      statistics: ['meanIndexValue', 'indexStdDev', 'pathCoveragePct'],
      reportCategory: 'vegetation_index',
    },
  ],
};

export const indexNames = ['NDVI', 'NDWI', 'EVI', 'SAVI', 'NDRE', 'LCI', 'Custom_Index'] as const;
export type IndexName = (typeof indexNames)[number];

/** Stops span each index's usual range over crops and soil, low values first. */
const colorScales: Record<IndexName, ColorScale> = {
  // ColorBrewer RdYlGn: bare soil and water red, dense canopy dark green.
  NDVI: {
    stops: [
      { value: -0.2, color: '#a50026' },
      { value: 0, color: '#d73027' },
      { value: 0.2, color: '#fdae61' },
      { value: 0.35, color: '#fee08b' },
      { value: 0.5, color: '#d9ef8b' },
      { value: 0.7, color: '#66bd63' },
      { value: 0.9, color: '#006837' },
    ],
  },
  // Dry (brown) to wet (blue).
  NDWI: {
    stops: [
      { value: -0.5, color: '#8c510a' },
      { value: -0.25, color: '#d8b365' },
      { value: 0, color: '#f6e8c3' },
      { value: 0.15, color: '#9ecae1' },
      { value: 0.3, color: '#4292c6' },
      { value: 0.5, color: '#08519c' },
    ],
  },
  EVI: {
    stops: [
      { value: -0.2, color: '#d73027' },
      { value: 0.1, color: '#fc8d59' },
      { value: 0.3, color: '#fee08b' },
      { value: 0.5, color: '#d9ef8b' },
      { value: 0.7, color: '#91cf60' },
      { value: 1, color: '#1a9850' },
    ],
  },
  // Soil-adjusted: the low end is soil, so it starts brown rather than red.
  SAVI: {
    stops: [
      { value: -0.2, color: '#8c510a' },
      { value: 0.1, color: '#d8b365' },
      { value: 0.3, color: '#f6e8c3' },
      { value: 0.5, color: '#c2e699' },
      { value: 0.7, color: '#78c679' },
      { value: 0.9, color: '#238443' },
    ],
  },
  // Red edge saturates later than NDVI; its useful range is narrower.
  NDRE: {
    stops: [
      { value: 0, color: '#d7191c' },
      { value: 0.15, color: '#fdae61' },
      { value: 0.3, color: '#ffffbf' },
      { value: 0.45, color: '#a6d96a' },
      { value: 0.6, color: '#1a9641' },
    ],
  },
  // Leaf chlorophyll: pale yellow (chlorotic) to deep green.
  LCI: {
    stops: [
      { value: 0, color: '#ffffcc' },
      { value: 0.2, color: '#c2e699' },
      { value: 0.4, color: '#78c679' },
      { value: 0.6, color: '#31a354' },
      { value: 0.8, color: '#006837' },
    ],
  },
  // Viridis: perceptually uniform and colour-blind safe, for an index of unknown meaning.
  Custom_Index: {
    stops: [
      { value: 0, color: '#440154' },
      { value: 0.2, color: '#414487' },
      { value: 0.4, color: '#2a788e' },
      { value: 0.6, color: '#22a884' },
      { value: 0.8, color: '#7ad151' },
      { value: 1, color: '#fde725' },
    ],
  },
};

const accentColors: Record<IndexName, string> = {
  NDVI: '#1a9850',
  NDWI: '#2171b5',
  EVI: '#66bd63',
  SAVI: '#8c6d31',
  NDRE: '#d95f0e',
  LCI: '#31a354',
  Custom_Index: '#440154',
};

// Boxes are fractions of the printable page. Every bound is a two-decimal number so that
// x + width and y + height stay within 1 without relying on the schema's tolerance.
const defaultLayouts = {
  portrait: {
    elements: [
      { type: 'title', x: 0.05, y: 0.03, width: 0.72, height: 0.07 },
      { type: 'logo', x: 0.8, y: 0.03, width: 0.15, height: 0.07 },
      { type: 'map', x: 0.05, y: 0.12, width: 0.9, height: 0.55 },
      { type: 'northArrow', x: 0.88, y: 0.13, width: 0.06, height: 0.06 },
      { type: 'legend', x: 0.05, y: 0.69, width: 0.3, height: 0.12 },
      { type: 'scale', x: 0.05, y: 0.83, width: 0.3, height: 0.04 },
      { type: 'statistics', x: 0.38, y: 0.69, width: 0.57, height: 0.26 },
    ],
  },
  landscape: {
    elements: [
      { type: 'title', x: 0.03, y: 0.04, width: 0.7, height: 0.08 },
      { type: 'logo', x: 0.82, y: 0.03, width: 0.15, height: 0.09 },
      { type: 'map', x: 0.03, y: 0.14, width: 0.64, height: 0.8 },
      { type: 'northArrow', x: 0.6, y: 0.16, width: 0.05, height: 0.08 },
      { type: 'scale', x: 0.04, y: 0.88, width: 0.25, height: 0.04 },
      { type: 'legend', x: 0.7, y: 0.14, width: 0.27, height: 0.3 },
      { type: 'statistics', x: 0.7, y: 0.47, width: 0.27, height: 0.47 },
    ],
  },
} satisfies Required<Layouts>;

export const vegetationIndexDefaults: VegetationIndexDefaults = {
  indexNames: [...indexNames],
  colorScales,
  accentColors,
  layouts: defaultLayouts,
  defaults: {
    paperSize: 'letter',
    mapResolution: 150,
    margins: { top: 2, right: 2, bottom: 2, left: 2 },
    saviL: 0.5,
  },
  // The engine's bundled rules, so the seed and an offline check agree; the functions come
  // from the formula function registry.
  customFormula: {
    allowedBands: [...defaultFormulaRules.allowedBands],
    allowedScalars: [...defaultFormulaRules.allowedScalars],
    allowedFunctions: [...defaultFormulaRules.allowedFunctions],
    rules: { divisionRequiresEps: defaultFormulaRules.divisionRequiresEps },
  },
};

export const seedCatalogs: Catalogs = {
  reportTypes: reportTypesCatalog,
  statistics: statisticsCatalog,
  vegetationIndexDefaults,
};

/** The four fields that tie a template to its catalog entry, read from the catalog itself. */
function reportTypeRef(
  analysisType: AnalysisType,
  key: string,
): { analysisType: AnalysisType; reportType: string; reportTypeId: string; reportCategory: ReportCategory } {
  const entry = reportTypesCatalog[analysisType].find((candidate) => candidate.key === key);
  if (entry === undefined) throw new Error(`seed preset names unknown ${analysisType} report type ${key}`);
  return { analysisType, reportType: entry.key, reportTypeId: entry.id, reportCategory: entry.reportCategory };
}

/** Fresh copies, so no two payloads share (and can mutate) one layout object. */
function layoutsOf(...orientations: Array<keyof typeof defaultLayouts>): Layouts {
  const layouts: Layouts = {};
  for (const orientation of orientations) layouts[orientation] = structuredClone(defaultLayouts[orientation]);
  return layouts;
}

type PageSettings = Pick<TemplateBodyInput, 'paperSize' | 'mapResolution' | 'margins'>;
const letterPage = (): PageSettings => ({ paperSize: 'letter', mapResolution: 150, margins: { top: 2, right: 2, bottom: 2, left: 2 } });
const a4Page = (): PageSettings => ({ paperSize: 'a4', mapResolution: 200, margins: { top: 2, right: 2, bottom: 2, left: 2 } });
// Index maps are read for detail between rows, so they print at a higher resolution.
const indexMapPage = (): PageSettings => ({
  paperSize: 'letter',
  mapResolution: 300,
  margins: { top: 1.5, right: 1.5, bottom: 1.5, left: 1.5 },
});

function preset(id: string, name: string, description: string, seedPayload: TemplateBodyInput): Preset {
  return {
    id,
    name,
    description,
    analysisType: seedPayload.analysisType,
    reportCategory: seedPayload.reportCategory,
    seedPayload,
  };
}

export const presets: Preset[] = [
  preset(
    'preset-counting-summary',
    'Plant count summary',
    'Total plants, density per hectare and emergence rate of a lot, on one portrait page.',
    {
      name: 'Plant count summary',
      ...reportTypeRef('counting', 'plant_count_summary'),
      selectedStatistics: ['totalPlants', 'plantsPerHectare', 'emergenceRate', 'countedAreaHa'],
      layouts: layoutsOf('portrait'),
      ...letterPage(),
    },
  ),
  preset(
    'preset-counting-spacing-uniformity',
    'Plant spacing uniformity',
    'Average spacing, its coefficient of variation, doubles and skips along the rows.',
    {
      name: 'Plant spacing uniformity',
      ...reportTypeRef('counting', 'spacing_uniformity'),
      selectedStatistics: ['averageSpacingCm', 'coefficientOfVariation', 'doublesPct', 'skipsPct'],
      layouts: layoutsOf('landscape'),
      ...a4Page(),
    },
  ),
  preset(
    'preset-counting-vigor-ndvi',
    'Crop vigor (NDVI)',
    'NDVI map of the lot with the RdYlGn scale, mean NDVI and the share of low-vigor area.',
    {
      name: 'Crop vigor (NDVI)',
      ...reportTypeRef('counting', 'vigor_ndvi'),
      selectedStatistics: ['meanNdvi', 'ndviStdDev', 'lowVigorAreaPct'],
      layouts: layoutsOf('portrait', 'landscape'),
      ...indexMapPage(),
      indexName: 'NDVI',
      colorScale: structuredClone(colorScales.NDVI),
    },
  ),
  preset(
    'preset-replanting-gaps',
    'Gaps to replant',
    'Where the stand failed: number and length of gaps and the failure rate of the lot.',
    {
      name: 'Gaps to replant',
      ...reportTypeRef('replanting', 'replanting_gaps'),
      selectedStatistics: ['gapCount', 'gapLengthM', 'longestGapM', 'failureRatePct'],
      layouts: layoutsOf('portrait'),
      ...letterPage(),
    },
  ),
  preset(
    'preset-replanting-cost-estimate',
    'Replanting cost estimate',
    'Plants and seed units needed to replant the gaps, the area to cover and its estimated cost.',
    {
      name: 'Replanting cost estimate',
      ...reportTypeRef('replanting', 'replanting_cost_estimate'),
      selectedStatistics: ['replantPlantsNeeded', 'seedUnitsNeeded', 'replantingAreaHa', 'estimatedReplantCost'],
      layouts: layoutsOf('portrait'),
      ...a4Page(),
    },
  ),
  preset(
    'preset-replanting-vigor-savi-custom',
    'Replanting zones by vigor (SAVI formula)',
    'A soil-adjusted index written as a Custom_Index formula with L = 0.5, for young crops over bare soil.',
    {
      name: 'Replanting zones by vigor (SAVI formula)',
      ...reportTypeRef('replanting', 'replanting_vigor_zones'),
      selectedStatistics: ['meanIndexValue', 'lowVigorAreaPct', 'replantingAreaHa'],
      layouts: layoutsOf('landscape'),
      ...indexMapPage(),
      saviL: 0.5,
      indexName: 'Custom_Index',
      formula: '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
    },
  ),
  preset(
    'preset-path-coverage',
    'Path coverage',
    'Length and number of tractor paths, the share of the lot they cover, overlaps and skipped area.',
    {
      name: 'Path coverage',
      ...reportTypeRef('path', 'path_coverage'),
      selectedStatistics: ['pathCount', 'pathLengthM', 'pathCoveragePct', 'overlapPct', 'skippedAreaHa'],
      layouts: layoutsOf('landscape'),
      ...letterPage(),
    },
  ),
  preset(
    'preset-path-deviation',
    'Path deviation from rows',
    'Cross-track error of the machinery against the planted rows, mean and maximum.',
    {
      name: 'Path deviation from rows',
      ...reportTypeRef('path', 'path_deviation'),
      selectedStatistics: ['crossTrackErrorCm', 'maxCrossTrackErrorCm', 'rowSpacingCm'],
      layouts: layoutsOf('portrait', 'landscape'),
      ...letterPage(),
    },
  ),
  preset(
    'preset-path-vigor-gndvi-custom',
    'Vigor along paths (GNDVI formula)',
    'Green NDVI written as a Custom_Index formula: more sensitive to chlorophyll than NDVI in dense canopy.',
    {
      name: 'Vigor along paths (GNDVI formula)',
      ...reportTypeRef('path', 'path_vigor_profile'),
      selectedStatistics: ['meanIndexValue', 'indexStdDev', 'pathCoveragePct'],
      layouts: layoutsOf('landscape'),
      ...indexMapPage(),
      indexName: 'Custom_Index',
      formula: '(NIR - G) / (NIR + G + eps)',
    },
  ),
  preset(
    'preset-path-vigor-ndre',
    'Nitrogen status along paths (NDRE)',
    'Red-edge index along tractor paths, for crops whose canopy already saturates NDVI.',
    {
      name: 'Nitrogen status along paths (NDRE)',
      ...reportTypeRef('path', 'path_vigor_profile'),
      selectedStatistics: ['meanIndexValue', 'pathCoveragePct'],
      layouts: layoutsOf('portrait'),
      ...indexMapPage(),
      indexName: 'NDRE',
    },
  ),
];
