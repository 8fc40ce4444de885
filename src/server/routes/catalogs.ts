import {
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  vegetationIndexDefaultsSchema,
} from '../../contract/index.js';
import { createHash } from 'node:crypto';
import { reportTypesCatalog, statisticsCatalog } from '../../contract/default-catalogs.js';
import type { Store } from '../store/index.js';
import { jsonText, notModified } from './answer.js';
import { defineEndpoint, type Endpoint, type EndpointInput } from './endpoint.js';

/** How long a client may reuse a catalog without asking (they change only by `admin catalogs import`). */
const CATALOG_MAX_AGE_SECONDS = 300;

/**
 * A catalog with an ETag and Cache-Control, so clients can cache it and revalidate it: a
 * matching If-None-Match is a 304 without a body.
 */
function cacheable(read: () => unknown) {
  return ({ headers }: EndpointInput<unknown, unknown>) => {
    const text = JSON.stringify(read());
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    const caching = { etag, 'cache-control': `private, max-age=${CATALOG_MAX_AGE_SECONDS}` };
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
