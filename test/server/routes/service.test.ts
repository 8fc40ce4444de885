import { describe, expect, it } from 'vitest';
import { endpoints, requestKindOf, requestKindOfRequest } from '../../../src/contract/endpoints.js';
import { serviceOpenApiDocument } from '../../../src/server/routes/service.js';

/** A path as a client sends it: an id in place of each parameter. */
const concrete = (path: string) => path.replace(/:\w+/g, '0b6f4c1e-2d3a-4f5b-8c7d-9e0f1a2b3c4d');

describe("the contract's list of endpoints", () => {
  it('is exactly what the service documents: each operationId at its method and path', () => {
    const documented: string[] = [];
    type Operation = { operationId: string; responses: Record<string, unknown> };
    for (const [path, operations] of Object.entries(serviceOpenApiDocument().paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        // A method the path lacks is declared with its 405 alone; the endpoints are the rest.
        if (!Object.keys(operation.responses).some((status) => status.startsWith('2'))) continue;
        documented.push(`${operation.operationId} ${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
    const listed = Object.entries(endpoints).map(([operationId, { method, path }]) => `${operationId} ${method} ${path}`);
    expect(documented.sort()).toEqual(listed.sort());
  });

  it("gives the client the bucket the service counts each request in, read POSTs included, under a base URL's prefix too", () => {
    const kinds = Object.values(endpoints).map((endpoint) => ({
      endpoint: `${endpoint.method} ${endpoint.path}`,
      client: requestKindOfRequest(endpoint.method, concrete(endpoint.path)),
      withSlash: requestKindOfRequest(endpoint.method, `${concrete(endpoint.path)}/`),
      behindPrefix: requestKindOfRequest(endpoint.method, `/reportctl${concrete(endpoint.path)}`),
      service: requestKindOf(endpoint),
    }));
    for (const kind of kinds) expect([kind.client, kind.withSlash, kind.behindPrefix], kind.endpoint).toEqual([kind.service, kind.service, kind.service]);
    expect(kinds.filter((kind) => kind.endpoint.startsWith('POST') && kind.service === 'read').map((kind) => kind.endpoint).sort()).toEqual([
      'POST /api/v0/analyses',
    ]);
    // validate-formula only reads, but the client paces it in the writes' bucket, as the service counts it.
    expect(requestKindOfRequest('POST', '/api/v2/templates/validate-formula')).toBe('write');
    expect(requestKindOfRequest('HEAD', '/api/v2/templates')).toBe('read');
  });
});
