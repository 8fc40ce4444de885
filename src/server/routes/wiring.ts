import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, parseOr400 } from '../errors.js';
import { whileServing } from '../store/index.js';
import { sendResponse } from './response.js';
import type { Endpoint, EndpointInput } from './endpoint.js';

/** Parsed queries kept per endpoint: a client polling or paging sends the same few again and again. */
const MAX_PARSED_QUERIES = 256;
type QueryParser = (request: FastifyRequest) => unknown;

/**
 * Parses `schema`'s query once per distinct query string (the same text always parses the
 * same) and freezes it, since every later request with that text shares it. A query that
 * fails is not kept: it is refused 400 each time.
 */
function queryParser(schema: NonNullable<Endpoint['query']>): QueryParser {
  const known = new Map<string, unknown>();
  return (request) => {
    const at = request.url.indexOf('?');
    const text = at < 0 ? '' : request.url.slice(at + 1);
    if (known.has(text)) return known.get(text);
    const query = Object.freeze(parseOr400(schema, request.query, 'Query'));
    if (known.size >= MAX_PARSED_QUERIES) known.delete(known.keys().next().value!);
    known.set(text, query);
    return query;
  };
}

/**
 * What a handler is given. A class, so that every request's input shares one shape: an object
 * literal with getters makes new accessors and a new hidden class per request, which V8 then
 * promotes out of the young generation, collected only by full GCs (docs/performance.md).
 */
class RequestInput implements EndpointInput<unknown, unknown> {
  body: unknown = undefined;
  readonly params: { id: string };
  readonly headers: FastifyRequest['headers'];

  constructor(
    private readonly request: FastifyRequest,
    readonly query: unknown,
  ) {
    this.params = request.params as { id: string };
    this.headers = request.headers;
  }

  /** The gate refused every request to an endpoint that needs a key and came without a valid one. */
  get caller() {
    const { caller } = this.request;
    if (!caller) throw new Error('caller used on a route without authentication');
    return caller;
  }

  get reserveResponseBytes() {
    const { reserveResponseBytes } = this.request;
    if (!reserveResponseBytes) throw new Error('reserveResponseBytes used on a route without authentication');
    return reserveResponseBytes;
  }
}

/** The request's input as its endpoint declares it, each part parsed once (400 on failure). */
function inputOf(endpoint: Endpoint, request: FastifyRequest, parseQuery: QueryParser | undefined): EndpointInput<unknown, unknown> {
  const input = new RequestInput(request, parseQuery?.(request));
  if (endpoint.found && !endpoint.found.exists(input.caller, input.params.id)) throw notFound(endpoint.found.what);
  const body = endpoint.bodyOptional ? (request.body ?? null) : request.body;
  if (endpoint.parseBody) input.body = endpoint.parseBody(body);
  else if (endpoint.body) input.body = parseOr400(endpoint.body, body);
  return input;
}

/** Every endpoint as a route: its input parsed, its handler run, its response sent. */
export function wireEndpoints(app: FastifyInstance, endpoints: readonly Endpoint[]): void {
  for (const endpoint of endpoints) {
    const status = endpoint.response?.status ?? 200;
    const parseQuery = endpoint.query ? queryParser(endpoint.query) : undefined;
    app.route({
      method: endpoint.method,
      url: endpoint.url,
      // A lock another process holds (an admin command) is waited for between attempts.
      handler: (request, reply) => {
        const result = whileServing(() => endpoint.handler(inputOf(endpoint, request, parseQuery)));
        // A result at hand goes out now, without a turn through the microtask queue.
        return result instanceof Promise ? result.then((settled) => sendResponse(reply, settled, status)) : sendResponse(reply, result, status);
      },
    });
  }
}
