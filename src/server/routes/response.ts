import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * What a handler returns when a bare value is not enough: other headers, another status than
 * its endpoint's, or JSON text sent as it is (a document stored as text is not parsed and
 * serialised again).
 */
export class RouteResponse {
  constructor(
    readonly parts: {
      status?: number;
      headers?: Record<string, string>;
      body?: unknown;
      /** JSON text, whole or in parts (a page of stored documents, not joined first). */
      jsonText?: string | readonly Buffer[];
    },
  ) {}
}

export const withHeaders = (body: unknown, headers: Record<string, string>) => new RouteResponse({ body, headers });
export const jsonText = (text: string | readonly Buffer[], headers?: Record<string, string>) =>
  new RouteResponse(headers ? { jsonText: text, headers } : { jsonText: text });
export const notModified = (headers: Record<string, string>) => new RouteResponse({ status: 304, headers });

/** The one place what a handler returns reaches the reply; `status` is its endpoint's success status. */
export function sendResponse(reply: FastifyReply, result: unknown, status: number): FastifyReply {
  if (!(result instanceof RouteResponse)) return reply.code(status).send(result);
  const { parts } = result;
  reply.code(parts.status ?? status);
  if (parts.headers) reply.headers(parts.headers);
  const text = parts.jsonText;
  if (text === undefined) return reply.send(parts.body);
  reply.type('application/json; charset=utf-8');
  if (typeof text === 'string') return reply.send(text);
  // One part (a page from the cache) goes out as it is: a stream costs more than the page.
  if (text.length === 1) return reply.send(text[0]);
  const length = text.reduce((sum, part) => sum + part.length, 0);
  return reply.header('content-length', String(length)).send(Readable.from(text, { objectMode: false }));
}
