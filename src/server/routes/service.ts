import type { Store } from '../store/index.js';
import { catalogEndpoints } from './catalogs.js';
import { openApiDocument, openApiEndpoint } from './openapi.js';
import { queueEndpoints } from './queues.js';
import type { Endpoint } from './endpoint.js';
import { templateEndpoints } from './templates.js';

/** The route table: every endpoint the service has, the OpenAPI document's own last. */
export function serviceEndpoints(store: Store): Endpoint[] {
  const endpoints: Endpoint[] = [...templateEndpoints(store), ...catalogEndpoints(store), ...queueEndpoints(store)];
  endpoints.push(openApiEndpoint(endpoints));
  return endpoints;
}

/** The document needs the table, not the data: its handlers never run here. */
const unreadStore = new Proxy({} as Store, {
  get: () => {
    throw new Error('the OpenAPI document reads no data');
  },
});

/** The OpenAPI document the service serves, built without a database (lint, tests). */
export function serviceOpenApiDocument(): Record<string, unknown> {
  return openApiDocument(serviceEndpoints(unreadStore));
}
