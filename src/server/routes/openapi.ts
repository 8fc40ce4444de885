import type { z } from 'zod';
import { jsonSchemaOf } from '../../contract/json-schema.js';
import { markDecisions } from '../../contract/decisions.js';
import { errorBodySchema, errorCodes, errorStatus, MAX_ELEMENT_PROPERTY_LENGTH, MAX_LAYOUT_ELEMENTS, MAX_TEMPLATE_BYTES, type ErrorCode } from '../../contract/index.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { defineEndpoint, type Endpoint, type Method } from './endpoint.js';

/**
 * OpenAPI 3.1: its schema dialect is JSON Schema 2020-12, which is what zod 4 writes, so the
 * contract's schemas go in as they are (null types, if/then, uniqueItems, const).
 */
export const OPENAPI_VERSION = '3.1.0';

/** Requests as a client writes them (query strings before coercion); responses as the service sends them. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...described } = jsonSchemaOf(schema, io);
  return described;
}

/**
 * Query parameters as the handler sees them after parsing: `page` and `limit` are integers
 * with their bounds and defaults, although they travel as text.
 */
function queryParameters(schema: z.ZodType | undefined): unknown[] {
  if (!schema) return [];
  const parsed = jsonSchema(schema, 'output') as { properties?: Record<string, Record<string, unknown>> };
  const sent = jsonSchema(schema, 'input') as { required?: string[] };
  return Object.entries(parsed.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: (sent.required ?? []).includes(name),
    schema: property,
  }));
}

const ref = (kind: 'headers' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const integerHeader = (description: string) => ({ description, required: true, schema: { type: 'integer', minimum: 0 } });
const textHeader = (description: string, example: string) => ({ description, required: true, schema: { type: 'string' }, example });

/** Response headers, by the name the document gives them. */
const headers = {
  'X-RateLimit-Limit': integerHeader('Requests of this kind (reads or writes) allowed per window'),
  'X-RateLimit-Remaining': integerHeader('Requests of this kind left in the current window'),
  'X-RateLimit-Reset': integerHeader('Seconds until the window frees a request'),
  'RateLimit-Policy': textHeader('The limit as an IETF RateLimit-Policy (quota q per window w seconds)', '"reads";q=600;w=60'),
  RateLimit: textHeader('The state as an IETF RateLimit field (remaining r, reset t seconds)', '"reads";r=599;t=60'),
  'Retry-After': integerHeader('Seconds to wait before trying again'),
  Location: { description: 'The created resource', required: true, schema: { type: 'string', format: 'uri-reference' } },
  Allow: textHeader('The methods the path has', 'GET, HEAD, POST'),
  Deprecation: textHeader('RFC 9745: deprecated since this moment (@ Unix seconds)', '@1735689600'),
  Link: textHeader('The successor of this deprecated endpoint', '</api/v2/analyses>; rel="successor-version"'),
  ETag: textHeader('The version of this response, for If-None-Match', '"wAxUDbt8vUgFR56DQRvvAnXXk1u"'),
  'Cache-Control': textHeader('The response may be kept, but asked for again (with its ETag) before each use', 'private, no-cache'),
} as const;
type HeaderName = keyof typeof headers;

const MIB = 1024 * 1024;
const { maxResponseBytes, maxAccountResponseBytes, responseStallMs, responseDeadlineMs } = DEFAULT_LIMITS;

/** Every response of the service, errors included, carries the rate-limit state of its bucket. */
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];
const DEPRECATION_HEADERS: HeaderName[] = ['Deprecation', 'Link'];
const CACHE_HEADERS: HeaderName[] = ['ETag', 'Cache-Control'];
/** What an error status means beyond its codes, where the limits behind it need saying. */
const STATUS_NOTES: Record<number, string> = {
  413: `a body over 1 MiB, or a template over ${MAX_TEMPLATE_BYTES / 1024} KiB as stored`,
  429: 'over the rate limit, or (when serve is started with a cap) too many requests of the account in flight',
  503: `shutting down, or the responses in flight already reserve ${maxResponseBytes / MIB} MiB of pages across accounts, or ${maxAccountResponseBytes / MIB} MiB for the account`,
};
/** Headers a response of this status carries besides the rate-limit ones. */
const headersOfStatus: Record<number, HeaderName[]> = { 201: ['Location'], 405: ['Allow'], 429: ['Retry-After'], 503: ['Retry-After'] };

const headerRefs = (names: readonly HeaderName[]) => Object.fromEntries(names.map((name) => [name, ref('headers', name)]));

/** The one error body, its `error` narrowed to the codes of one status (issues required on 400). */
function errorBody(status: number): Record<string, unknown> {
  const described = jsonSchema(errorBodySchema, 'output') as { properties: Record<string, unknown>; required: string[] };
  const codes = errorCodes.filter((code) => errorStatus[code] === status);
  return {
    ...described,
    properties: { ...described.properties, error: { type: 'string', enum: codes } },
    required: status === 400 ? [...described.required, 'issues'] : described.required,
  };
}

const errorStatuses = [...new Set(Object.values(errorStatus))].sort((a, b) => a - b);
const errorResponseName = (status: number) => `Error${status}`;

function errorResponse(status: number, extraHeaders: readonly HeaderName[] = []): unknown {
  const codes = errorCodes.filter((code) => errorStatus[code] === status);
  return {
    description: `${codes.join(' or ')}${STATUS_NOTES[status] ? `: ${STATUS_NOTES[status]}` : ''}`,
    headers: headerRefs([...RATE_LIMIT_HEADERS, ...(headersOfStatus[status] ?? []), ...extraHeaders]),
    content: { 'application/json': { schema: ref('schemas', errorResponseName(status)) } },
  };
}

/** Methods whose body Fastify reads (and so can refuse as too large or of the wrong type). */
const READS_BODY: ReadonlySet<Method> = new Set(['POST', 'PUT', 'DELETE']);

/** Every error an endpoint can respond with: those its shape implies, then its own. */
export function errorCodesOf(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    // Any URL may carry a malformed percent-escape.
    'VALIDATION_FAILED',
    ...(endpoint.auth ? (['API_KEY_MISSING', 'API_KEY_INVALID'] as const) : []),
    ...(endpoint.url.includes(':') ? (['NOT_FOUND'] as const) : []),
    ...(READS_BODY.has(endpoint.method) ? (['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const) : []),
    ...(endpoint.errors ?? []),
    'RATE_LIMITED',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
    // Injected faults may respond with these on any route.
    'BAD_GATEWAY',
    'GATEWAY_TIMEOUT',
  ]);
  return errorCodes.filter((code) => codes.has(code));
}

// No length bound: an id of any length that names nothing is a 404, not a 400.
const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

const AUTHENTICATED = [{ apiKey: [] }, { xApiKey: [] }, { bearer: [] }];

function operation(endpoint: Endpoint): Record<string, unknown> {
  const extraHeaders = endpoint.deprecated ? DEPRECATION_HEADERS : [];
  const responses: Record<string, unknown> = {};
  const success: NonNullable<Endpoint['response']> = endpoint.response ?? { status: 200, description: 'OK' };
  const cacheHeaders = endpoint.cacheable ? CACHE_HEADERS : [];
  responses[String(success.status)] = {
    description: success.description,
    headers: headerRefs([...RATE_LIMIT_HEADERS, ...(headersOfStatus[success.status] ?? []), ...extraHeaders, ...cacheHeaders]),
    ...(success.status === 204
      ? {}
      : {
          content: {
            'application/json': {
              schema: success.schema ? jsonSchema(success.schema, 'output') : { type: 'object' },
              ...(success.example !== undefined ? { example: success.example } : {}),
            },
          },
        }),
  };
  if (endpoint.cacheable) {
    responses['304'] = { description: 'Not modified: the copy whose ETag was sent in If-None-Match is still good', headers: headerRefs([...RATE_LIMIT_HEADERS, ...cacheHeaders]) };
  }
  for (const status of new Set(errorCodesOf(endpoint).map((code) => errorStatus[code]))) {
    // A shared response, unless this endpoint adds headers to every response (the deprecated one).
    responses[String(status)] = extraHeaders.length > 0 ? errorResponse(status, extraHeaders) : ref('responses', errorResponseName(status));
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.deprecated ? { deprecated: true } : {}),
    ...(endpoint.auth ? {} : { security: [] }),
    parameters: [
      ...(endpoint.url.includes(':id')
        ? [ID_PARAMETER]
        : []),
      ...queryParameters(endpoint.query),
      ...(endpoint.cacheable ? [{ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a copy the client holds', schema: { type: 'string' } }] : []),
    ],
    ...(endpoint.body
      ? {
          requestBody: {
            required: !endpoint.bodyOptional,
            content: {
              'application/json': {
                schema: jsonSchema(endpoint.body, 'input'),
                ...(endpoint.bodyExample !== undefined ? { example: endpoint.bodyExample } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The methods the document declares on every path: those a path lacks get a 405. */
const DECLARED_METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/**
 * A method a path does not have, as the service responds to it: a 405 with the methods it has in
 * Allow, before any key is checked (a rate limit still comes first).
 */
function notAllowed(path: string, method: string, operations: Record<string, unknown>): Record<string, unknown> {
  const allowed = Object.keys(operations).map((name) => name.toUpperCase());
  const name = path
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api')
    .map((segment) => segment.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_match, _separator, letter: string) => letter.toUpperCase()).replace(/[^a-zA-Z0-9]/g, ''))
    .join('');
  return {
    operationId: `${method}${name}NotAllowed`,
    summary: `${method.toUpperCase()} is not allowed here (${allowed.join(', ')} are)`,
    security: [],
    ...(path.includes('{id}') ? { parameters: [ID_PARAMETER] } : {}),
    responses: { '405': ref('responses', errorResponseName(405)), '429': ref('responses', errorResponseName(429)) },
  };
}

/** The OpenAPI document, generated from the route table and the contract the routes validate with. */
export function openApiDocument(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const path = endpoint.url.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    const described = operation(endpoint);
    if ((described.parameters as unknown[]).length === 0) delete described.parameters;
    paths[path][endpoint.method.toLowerCase()] = described;
  }
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of DECLARED_METHODS.filter((candidate) => !(candidate in operations))) operations[method] = notAllowed(path, method, operations);
  }
  const document = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Report templates, catalogs and queues (reportctl embedded service)',
      version: '2',
      description:
        'Every path also takes HEAD where it takes GET. A method a path does not have is declared with ' +
        'its one response, `Error405` (and its `Allow` header); a path the service does not have gets `Error404`. Requests Node ' +
        'refuses before the service sees them (headers over 16 KiB: 431, headers not sent within 10 s: 408 ' +
        '`REQUEST_TIMEOUT`, not HTTP: 400) get the same error body, with the rate-limit headers of the client address. ' +
        `Limits: bodies up to 1 MiB; a stored template up to ${MAX_TEMPLATE_BYTES / 1024} KiB as JSON; up to ` +
        `${MAX_LAYOUT_ELEMENTS} layout elements per orientation; each free-form element property up to ` +
        `${MAX_ELEMENT_PROPERTY_LENGTH} characters as JSON; no non-finite numbers, lone surrogates or control ` +
        'characters (but tab, CR and LF) anywhere in a body, none at all in names; ' +
        `${maxResponseBytes / MIB} MiB of pages reserved by the responses in flight of all accounts, ${maxAccountResponseBytes / MIB} MiB ` +
        `by one account's; a response its client takes nothing of for ${responseStallMs / 1000} s is dropped, and one not ` +
        `taken whole within ${responseDeadlineMs / 1000} s.`,
      license: { name: 'UNLICENSED (no licence has been granted)' },
    },
    // Relative: the document is served by the service it describes, wherever that listens.
    servers: [{ url: '/', description: 'The service that served this document' }],
    security: AUTHENTICATED,
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'apiKey' },
        xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      headers,
      responses: Object.fromEntries(errorStatuses.map((status) => [errorResponseName(status), errorResponse(status)])),
      schemas: Object.fromEntries(errorStatuses.map((status) => [errorResponseName(status), errorBody(status)])),
    },
  };
  // Each guess and each rule stricter than the specification, where a client reads the place.
  markDecisions(document);
  return document;
}

export function openApiEndpoint(endpoints: readonly Endpoint[]): Endpoint {
  let document: unknown;
  return defineEndpoint({
    operationId: 'getOpenApiDocument',
    auth: false,
    summary: 'This document',
    response: { status: 200, description: 'The OpenAPI document' },
    handler: () => (document ??= openApiDocument([...endpoints])),
  });
}
