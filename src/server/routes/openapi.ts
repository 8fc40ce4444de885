import { z } from 'zod';
import { errorBodySchema } from '../../contract/index.js';
import type { Endpoint } from './table.js';

function jsonSchema(schema: z.ZodType): unknown {
  // Inputs as a client writes them (query strings before coercion); refinements are not expressible.
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' });
}

function queryParameters(schema: z.ZodType | undefined): unknown[] {
  if (!schema) return [];
  const described = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(described.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(errorBodySchema) } },
});

/** The OpenAPI document, generated from the same contract the routes validate with. */
export function openApiDocument(endpoints: readonly Endpoint[]): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const path = endpoint.url.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...(endpoint.url.includes(':id') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : []),
      ...queryParameters(endpoint.query),
    ];
    const responses: Record<string, unknown> = {};
    if (endpoint.response) {
      responses[String(endpoint.response.status)] = endpoint.response.schema
        ? { description: endpoint.response.description, content: { 'application/json': { schema: jsonSchema(endpoint.response.schema) } } }
        : { description: endpoint.response.description };
    }
    if (endpoint.body || endpoint.query) responses['400'] = errorResponse('VALIDATION_FAILED, with issues');
    if (endpoint.auth) responses['401'] = errorResponse('API_KEY_MISSING or API_KEY_INVALID');
    if (endpoint.url.includes(':id')) responses['404'] = errorResponse('NOT_FOUND (also for ids of another account)');
    if (endpoint.method === 'POST' && endpoint.url === '/api/v2/templates') responses['403'] = errorResponse('PLAN_LIMIT_EXCEEDED');
    responses['429'] = errorResponse('RATE_LIMITED, with Retry-After');
    responses['503'] = errorResponse('SERVICE_UNAVAILABLE, with Retry-After: database locked by another process, or shutting down');
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = {
      summary: endpoint.summary,
      ...(endpoint.deprecated ? { deprecated: true } : {}),
      ...(endpoint.auth ? { security: [{ apiKey: [] }, { xApiKey: [] }, { bearer: [] }] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(endpoint.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(endpoint.body) } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Report templates, catalogs and queues (reportctl embedded service)', version: '2' },
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'apiKey' },
        xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}

export function openApiEndpoint(endpoints: readonly Endpoint[]): Endpoint {
  let document: unknown;
  return {
    method: 'GET',
    url: '/api/v2/openapi.json',
    kind: 'read',
    auth: false,
    summary: 'This document',
    handler: () => (document ??= openApiDocument([...endpoints])),
  };
}
