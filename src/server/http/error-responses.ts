import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { bodyRuleMessages } from '../../contract/template-rules.js';
import { ApiError, validationFailed } from '../errors.js';
import { ECHO_MAX, shown } from './log-redaction.js';
import { isBusyError } from '../store/index.js';

export type ErrorResponder = (error: unknown, reply: FastifyReply) => FastifyReply;

/** Fastify's own errors (body parsing, limits) in the service's vocabulary; null for bugs. */
function fromFrameworkError(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', bodyRuleMessages.tooLarge);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('VALIDATION_FAILED', 'Request body failed validation', [{ path: '', message: 'The body is empty' }]);
  }
  // Malformed JSON and poisoned prototypes arrive as SyntaxErrors marked 400.
  if (error.statusCode === 400 || error instanceof SyntaxError) {
    return new ApiError('VALIDATION_FAILED', 'Request body failed validation', [{ path: '', message: 'The body is not valid JSON' }]);
  }
  if (error.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', bodyRuleMessages.tooLarge);
  if (error.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  return null;
}

/** The database stayed locked by another process past the wait; nothing was written. */
const databaseBusy = () =>
  new ApiError('SERVICE_UNAVAILABLE', 'The database is busy (locked by another process); try again', undefined, { 'retry-after': '1' });

/** The one way errors become responses: the service's error body, and a generic 500 (logged) for bugs. */
export function errorResponder(errorLog: ((error: unknown) => void) | undefined): ErrorResponder {
  return (error, reply) => {
    const apiError = error instanceof ApiError ? error : isBusyError(error) ? databaseBusy() : fromFrameworkError(error as FastifyError);
    if (!apiError) {
      errorLog?.(error);
      return reply.code(500).send({ error: 'INTERNAL_ERROR', message: 'Internal error; it has been logged' });
    }
    return reply.code(apiError.status).headers(apiError.headers).send(apiError.body());
  };
}

/** Errors of routes and hooks, and paths no route has. */
export function registerErrorResponses(app: FastifyInstance, respondWithError: ErrorResponder): void {
  app.setNotFoundHandler((request) => {
    throw new ApiError('NOT_FOUND', `No route ${request.method} ${shown(request.url.split('?')[0]!, ECHO_MAX)}`);
  });
  app.setErrorHandler((error: FastifyError | ApiError, _request: FastifyRequest, reply: FastifyReply) => respondWithError(error, reply));
}

/**
 * A malformed percent-escape or an over-long id never reaches a route: the response is made
 * here in the service's shape (Fastify's own body has no `error` code), after the gate's steps
 * as for any request.
 */
export function frameworkErrorResponder(
  admit: (request: FastifyRequest, reply: FastifyReply) => void,
  respondWithError: ErrorResponder,
  onStart?: (request: FastifyRequest, reply: FastifyReply) => void,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    onStart?.(request, reply);
    try {
      admit(request, reply);
      // An id longer than any id can be names nothing; anything else here would be a bug (500).
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') throw new ApiError('NOT_FOUND', 'Resource not found');
      if (error.code === 'FST_ERR_BAD_URL') throw validationFailed([{ path: '', message: 'The URL has a malformed percent-escape' }], 'URL');
      throw error;
    } catch (caught) {
      respondWithError(caught, reply);
    }
  };
}
