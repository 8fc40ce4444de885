import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../routes/endpoint.js';

/**
 * Step 8 of the gate: every endpoint but the few marked `auth: false` needs a valid key. The
 * caller was looked up at step 3; only now, after the rate limit and the 404/405, is a missing
 * or unknown key refused.
 */
export function requireKey(request: FastifyRequest, endpoint: Endpoint | undefined): void {
  if (endpoint?.auth === false || request.caller) return;
  throw request.keyPresented
    ? new ApiError('API_KEY_INVALID', 'The API key is not valid (unknown or revoked)')
    : new ApiError('API_KEY_MISSING', 'Send an API key in the apiKey header (or X-API-Key, or Authorization: Bearer)');
}
