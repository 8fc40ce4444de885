import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOGGED_MAX, shown } from './log-redaction.js';

export type AccessLog = (line: string) => void;

/** One line per request (time, method, URL with secrets masked, status, ms). Never the key. */
export function accessLine(now: () => number, method: string, url: string, status: number, elapsedMs: number): string {
  return `${new Date(now()).toISOString()} ${method} ${shown(url, LOGGED_MAX)} ${status} ${elapsedMs.toFixed(1)}ms`;
}

/** Logs every request that went through Fastify's routing, once its response is sent. */
export function registerAccessLog(app: FastifyInstance, log: AccessLog, now: () => number): void {
  app.addHook('onResponse', async (request, reply) => {
    log(accessLine(now, request.method, request.url, reply.statusCode, reply.elapsedTime));
  });
}

/** Logs a request refused before routing (no onResponse hook runs for those) once its response is sent. */
export function logWhenSent(log: AccessLog, now: () => number, request: FastifyRequest, reply: FastifyReply): void {
  const started = performance.now();
  reply.raw.once('finish', () => log(accessLine(now, request.method, request.url, reply.statusCode, performance.now() - started)));
}
