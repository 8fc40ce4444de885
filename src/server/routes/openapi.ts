import { z } from 'zod';
import { errorBodySchema, MAX_ELEMENT_PROPERTY_LENGTH, MAX_LAYOUT_ELEMENTS, MAX_TEMPLATE_BYTES } from '../../contract/index.js';
import { MAX_IN_FLIGHT_PER_ACCOUNT } from '../in-flight.js';
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
    if (endpoint.body) {
      const storedTemplate = endpoint.url === '/api/v2/templates' || endpoint.url === '/api/v2/templates/:id';
      responses['413'] = errorResponse(
        `PAYLOAD_TOO_LARGE: a body over 1 MiB${storedTemplate ? `, or a template over ${MAX_TEMPLATE_BYTES / 1024} KiB as stored` : ''}`,
      );
    }
    responses['429'] = errorResponse(
      `RATE_LIMITED, with Retry-After: over the rate limit, or more than ${MAX_IN_FLIGHT_PER_ACCOUNT} requests of the account in flight`,
    );
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
    info: {
      title: 'Report templates, catalogs and queues (reportctl embedded service)',
      version: '2',
      description:
        `Limits: bodies up to 1 MiB; a stored template up to ${MAX_TEMPLATE_BYTES / 1024} KiB as JSON; up to ` +
        `${MAX_LAYOUT_ELEMENTS} layout elements per orientation; each free-form element property up to ` +
        `${MAX_ELEMENT_PROPERTY_LENGTH} characters as JSON; no non-finite numbers, lone surrogates or control ` +
        'characters (but tab, CR and LF) anywhere in a body, none at all in names; ' +
        `${MAX_IN_FLIGHT_PER_ACCOUNT} requests in flight per account.`,
    },
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
