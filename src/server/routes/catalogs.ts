import {
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  vegetationIndexDefaultsSchema,
} from '../../contract/index.js';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reportTypesCatalog, statisticsCatalog } from '../../contract/default-catalogs.js';
import type { Store } from '../store/index.js';
import { sendJsonText } from './json-text.js';
import type { Endpoint } from './table.js';

/** How long a client may reuse a catalog without asking (they change only by `admin catalogs import`). */
const CATALOG_MAX_AGE_SECONDS = 300;

/**
 * A catalog with an ETag and Cache-Control, so clients can cache it and revalidate it: a
 * matching If-None-Match is a 304 without a body.
 */
function cacheable(read: () => unknown) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const text = JSON.stringify(read());
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    reply.header('etag', etag).header('cache-control', `private, max-age=${CATALOG_MAX_AGE_SECONDS}`);
    const asked = request.headers['if-none-match'];
    if (asked !== undefined && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)) return reply.code(304).send();
    return sendJsonText(reply, text);
  };
}

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
      cacheable: true,
      handler: cacheable(() => store.catalogs.reportTypes()),
    },
    {
      method: 'GET',
      url: '/api/v2/catalogs/statistics',
      operationId: 'listStatistics',
      kind: 'read',
      auth: true,
      summary: 'Statistic keys per analysis type',
      response: { status: 200, schema: statisticsCatalogSchema, description: 'Statistics by analysis type', example: statisticsCatalog },
      cacheable: true,
      handler: cacheable(() => store.catalogs.statistics()),
    },
    {
      method: 'GET',
      url: '/api/v2/catalogs/vegetation-index-defaults',
      operationId: 'getVegetationIndexDefaults',
      kind: 'read',
      auth: true,
      summary: 'Everything needed to build a vegetation-index template',
      response: { status: 200, schema: vegetationIndexDefaultsSchema, description: 'Vegetation-index defaults' },
      cacheable: true,
      handler: cacheable(() => store.catalogs.vegetationIndexDefaults()),
    },
  ];
}
