import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf } from '../auth.js';
import { notFound, parseOr400 } from '../errors.js';
import { whileServing } from '../store/index.js';
import { sendAnswer } from './answer.js';
import type { Endpoint, EndpointInput } from './endpoint.js';

/** The request's input as its endpoint declares it, each part parsed once (400 on failure). */
function inputOf(endpoint: Endpoint, request: FastifyRequest): EndpointInput<unknown, unknown> {
  const params = request.params as { id: string };
  const query = endpoint.query ? parseOr400(endpoint.query, request.query, 'Query') : undefined;
  const input = {
    query,
    body: undefined as unknown,
    params,
    get caller() {
      return callerOf(request);
    },
    headers: request.headers,
  };
  if (endpoint.found && !endpoint.found.exists(input.caller, params.id)) throw notFound(endpoint.found.what);
  const body = endpoint.bodyOptional ? (request.body ?? null) : request.body;
  if (endpoint.parseBody) input.body = endpoint.parseBody(body);
  else if (endpoint.body) input.body = parseOr400(endpoint.body, body);
  return input;
}

/** Every endpoint as a route: its input parsed, its handler run, its answer sent. */
export function wireEndpoints(app: FastifyInstance, endpoints: readonly Endpoint[]): void {
  for (const endpoint of endpoints) {
    const status = endpoint.response?.status ?? 200;
    app.route({
      method: endpoint.method,
      url: endpoint.url,
      // A lock another process holds (an admin command) is waited for between attempts.
      handler: async (request, reply) => sendAnswer(reply, await whileServing(() => endpoint.handler(inputOf(endpoint, request))), status),
    });
  }
}
