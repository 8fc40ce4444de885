import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Sends JSON text as it is: a document stored as text is not parsed and serialised again. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/** Sends JSON text held in parts (a page of stored documents) without joining them first. */
export function sendJsonParts(reply: FastifyReply, parts: Buffer[]): FastifyReply {
  // One part (a page from the cache) goes out as it is: a stream costs more than the page.
  if (parts.length === 1) return reply.type('application/json; charset=utf-8').send(parts[0]);
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return reply
    .type('application/json; charset=utf-8')
    .header('content-length', String(length))
    .send(Readable.from(parts, { objectMode: false }));
}
