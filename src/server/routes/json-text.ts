import type { FastifyReply } from 'fastify';

/** Sends JSON text as it is: a document stored as text is not parsed and serialised again. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
