import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../../contract/index.js';

/** Reads and writes are limited separately (PRODUCT.md "Limits"). */
export type RequestKind = 'read' | 'write';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One endpoint: the single description that drives routing, 405s, rate limits and OpenAPI. */
export interface Endpoint {
  method: Method;
  url: string;
  kind: RequestKind;
  /** False only for the public OpenAPI document. */
  auth: boolean;
  /** The CLI's verb for it (`listTemplates`, `createTemplate` …): the document's operationId. */
  operationId: string;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out altogether (the deprecated v0 listing). */
  bodyOptional?: boolean;
  /** A body for the document's example, taken from the demo data. */
  bodyExample?: unknown;
  /** Error codes only this endpoint answers; those every endpoint of its shape answers are derived. */
  errors?: ErrorCode[];
  response?: { status: number; schema?: z.ZodType; description: string; example?: unknown };
  /** Answers carry ETag and Cache-Control, and a matching If-None-Match is a 304 (the catalogs). */
  cacheable?: boolean;
  /** Marks every response of the endpoint (RFC 9745 Deprecation + successor Link). */
  deprecated?: { since: string; successor: string };
  handler(request: FastifyRequest, reply: FastifyReply): unknown;
}

interface CompiledPath {
  pattern: RegExp;
  isStatic: boolean;
  methods: Set<string>;
}

/**
 * Which methods a concrete path allows. A static path wins over a parameter one, so
 * `GET /api/v2/templates/validate-formula` is a 405, not a lookup of a template of that id.
 */
export class EndpointIndex {
  private readonly paths: CompiledPath[] = [];

  constructor(endpoints: readonly Endpoint[]) {
    const byUrl = new Map<string, CompiledPath>();
    for (const endpoint of endpoints) {
      let compiled = byUrl.get(endpoint.url);
      if (!compiled) {
        const source = endpoint.url
          .split('/')
          .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/');
        compiled = { pattern: new RegExp(`^${source}/?$`), isStatic: !endpoint.url.includes(':'), methods: new Set() };
        byUrl.set(endpoint.url, compiled);
        this.paths.push(compiled);
      }
      compiled.methods.add(endpoint.method);
      if (endpoint.method === 'GET') compiled.methods.add('HEAD');
    }
  }

  allowedMethods(path: string): Set<string> | null {
    const matches = this.paths.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) return null;
    const statics = matches.filter((candidate) => candidate.isStatic);
    const chosen = statics.length > 0 ? statics : matches;
    return new Set(chosen.flatMap((candidate) => [...candidate.methods]));
  }
}
