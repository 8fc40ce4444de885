import {
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  vegetationIndexDefaultsSchema,
} from '../../contract/index.js';
import { reportTypesCatalog, statisticsCatalog } from '../seed/catalogs.js';
import type { Store } from '../store/index.js';
import type { Endpoint } from './table.js';

export function catalogEndpoints(store: Store): Endpoint[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/catalogs/report-types',
      operationId: 'listReportTypes',
      kind: 'read',
      auth: true,
      summary: 'Valid reportType values per analysis type',
      response: { status: 200, schema: reportTypesCatalogSchema, description: 'Report types by analysis type', example: reportTypesCatalog },
      handler: () => store.catalogs.reportTypes(),
    },
    {
      method: 'GET',
      url: '/api/v2/catalogs/statistics',
      operationId: 'listStatistics',
      kind: 'read',
      auth: true,
      summary: 'Statistic keys per analysis type',
      response: { status: 200, schema: statisticsCatalogSchema, description: 'Statistics by analysis type', example: statisticsCatalog },
      handler: () => store.catalogs.statistics(),
    },
    {
      method: 'GET',
      url: '/api/v2/catalogs/vegetation-index-defaults',
      operationId: 'getVegetationIndexDefaults',
      kind: 'read',
      auth: true,
      summary: 'Everything needed to build a vegetation-index template',
      response: { status: 200, schema: vegetationIndexDefaultsSchema, description: 'Vegetation-index defaults' },
      handler: () => store.catalogs.vegetationIndexDefaults(),
    },
  ];
}
