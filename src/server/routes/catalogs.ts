import {
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  vegetationIndexDefaultsSchema,
} from '../../contract/index.js';
import { createHash } from 'node:crypto';
import { reportTypesCatalog, statisticsCatalog } from '../../contract/default-catalogs.js';
import type { Store } from '../store/index.js';
import { jsonText, notModified } from './response.js';
import { defineEndpoint, type Endpoint, type EndpointInput } from './endpoint.js';

/**
 * Clients may keep a catalog but ask again before each use: an administrator's change shows
 * at once, even behind an HTTP cache, and an unchanged catalog costs a 304 without a body.
 */
const CATALOG_CACHE_CONTROL = 'private, no-cache';

/** A catalog with an ETag; a matching If-None-Match is a 304 without a body. */
function cacheable(read: () => unknown) {
  return ({ headers }: EndpointInput<unknown, unknown>) => {
    const text = JSON.stringify(read());
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    const caching = { etag, 'cache-control': CATALOG_CACHE_CONTROL };
    const asked = headers['if-none-match'];
    if (asked !== undefined && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)) return notModified(caching);
    return jsonText(text, caching);
  };
}

export function catalogEndpoints(store: Store): Endpoint[] {
  return [
    defineEndpoint({
      operationId: 'listReportTypes',
      summary: 'Valid reportType values per analysis type',
      response: { status: 200, schema: reportTypesCatalogSchema, description: 'Report types by analysis type', example: reportTypesCatalog },
      cacheable: true,
      handler: cacheable(() => store.catalogs.reportTypes()),
    }),
    defineEndpoint({
      operationId: 'listStatistics',
      summary: 'Statistic keys per analysis type',
      response: { status: 200, schema: statisticsCatalogSchema, description: 'Statistics by analysis type', example: statisticsCatalog },
      cacheable: true,
      handler: cacheable(() => store.catalogs.statistics()),
    }),
    defineEndpoint({
      operationId: 'getVegetationIndexDefaults',
      summary: 'Everything needed to build a vegetation-index template',
      response: { status: 200, schema: vegetationIndexDefaultsSchema, description: 'Vegetation-index defaults' },
      cacheable: true,
      handler: cacheable(() => store.catalogs.vegetationIndexDefaults()),
    }),
  ];
}
