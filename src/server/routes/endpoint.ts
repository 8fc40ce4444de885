import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { endpoints, requestKindOf, type Method, type OperationId, type RequestKind } from '../../contract/endpoints.js';
import type { ErrorCode } from '../../contract/index.js';
import type { Caller, ReserveBytes } from '../store/index.js';

export type { Method, RequestKind };

/** What a handler is given: the request's input, parsed once by the schemas its endpoint declares. */
export interface EndpointInput<Query, Body> {
  query: Query;
  body: Body;
  params: { id: string };
  /** The key's owner: the gate has refused every request without one (but to the public document). */
  caller: Caller;
  headers: FastifyRequest['headers'];
  /** Reserves the bytes of the response as they are read (a page of templates); throws 503 past the service's limit. */
  reserveResponseBytes: ReserveBytes;
}

type Parsed<Schema> = Schema extends z.ZodType ? z.infer<Schema> : undefined;

/** An endpoint as a route file writes it: where it is comes from the contract's list, by operationId. */
export interface EndpointDefinition<Query extends z.ZodType | undefined, BodySchema extends z.ZodType | undefined, Body> {
  /** The CLI's verb for it (`listTemplates`, `createTemplate` …): the document's operationId. */
  operationId: OperationId;
  /** Left out: a key is required. False only for the public OpenAPI document. */
  auth?: false;
  summary: string;
  /** Parsed before the handler runs; a failure is the documented 400 at the parameter's name. */
  query?: Query;
  /** Parsed before the handler runs (after `found`); a failure is the documented 400. */
  body?: BodySchema;
  /** The body may be left out altogether (the deprecated v0 listing): taken as JSON null. */
  bodyOptional?: boolean;
  /** Instead of `body` alone, where a body needs more than its schema (the catalogs, a size). */
  parseBody?: (body: unknown) => Body;
  /** The resource the path's id names: an unknown one is 404 before the body is looked at. */
  found?: { what: string; exists: (caller: Caller, id: string) => boolean };
  /** A body for the document's example, taken from the demo data. */
  bodyExample?: unknown;
  /** Error codes only this endpoint responds with; those of every endpoint of its shape are derived. */
  errors?: ErrorCode[];
  /** The status a handler's return value is sent with, and what the document says of it. */
  response?: { status: number; schema?: z.ZodType; description: string; example?: unknown };
  /** Responses carry ETag and Cache-Control, and a matching If-None-Match is a 304 (the catalogs). */
  cacheable?: boolean;
  /** Marks every response of the endpoint (RFC 9745 Deprecation + successor Link). */
  deprecated?: { since: string; successor: string };
  /** Returns what is sent: a value, as JSON with `response.status`, or a RouteResponse (see response.ts). */
  handler(input: EndpointInput<Parsed<Query>, Body>): unknown;
}

/** One endpoint: the single description that drives routing, 405s, rate limits, input parsing and OpenAPI. */
export interface Endpoint extends Omit<EndpointDefinition<z.ZodType | undefined, z.ZodType | undefined, unknown>, 'auth' | 'handler'> {
  method: Method;
  url: string;
  kind: RequestKind;
  auth: boolean;
  handler(input: EndpointInput<unknown, unknown>): unknown;
}

export function defineEndpoint<
  Query extends z.ZodType | undefined = undefined,
  BodySchema extends z.ZodType | undefined = undefined,
  Body = Parsed<BodySchema>,
>(definition: EndpointDefinition<Query, BodySchema, Body>): Endpoint {
  const address = endpoints[definition.operationId];
  return {
    ...(definition as unknown as Omit<Endpoint, 'method' | 'url' | 'kind' | 'auth'>),
    method: address.method,
    url: address.path,
    kind: requestKindOf(address),
    auth: definition.auth !== false,
  };
}
