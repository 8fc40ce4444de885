import { z } from 'zod';

export const errorCodes = [
  'VALIDATION_FAILED',
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'PLAN_LIMIT_EXCEEDED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'BAD_GATEWAY',
  'GATEWAY_TIMEOUT',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const validationIssueSchema = z.looseObject({
  path: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** Every error body. `error` stays a plain string for readers: the real service may add codes. */
export const errorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string(),
  issues: z.array(validationIssueSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  PLAN_LIMIT_EXCEEDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  // Not in the service's table: the request (its headers) did not arrive in time. Nothing was
  // done; send it again.
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  // Not in the service's table: the embedded service's answer when its database stays locked
  // by another process, or when it is shutting down. Nothing was done; retry later.
  SERVICE_UNAVAILABLE: 503,
  // Only from faults injected on purpose (`serve --fault`, `admin faults add`): what a gateway
  // in front of the real service answers when it cannot reach it.
  BAD_GATEWAY: 502,
  GATEWAY_TIMEOUT: 504,
};

/** Dots between keys, indices as numbers: `layouts.portrait.elements.0.x`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((key) => String(key)).join('.');
}

/**
 * Zod issues in the service's words. Type errors and catalog misses name the field and not
 * the reason (as the real service does); the CLI adds the helpful version.
 */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issuePath(issue.path);
    const field = path === '' ? 'request body' : path;
    switch (issue.code) {
      case 'invalid_type':
        return { path, message: issue.input === undefined ? `${field} is required` : `Invalid ${field}` };
      case 'invalid_value':
        // A missing enum field arrives here too (zod 4), not as invalid_type.
        return { path, message: issue.input === undefined ? `${field} is required` : `Invalid ${field}` };
      case 'unrecognized_keys':
        // One issue per unknown key, at the key's own path.
        return issue.keys.map((key) => {
          const keyPath = issuePath([...issue.path, key]);
          return { path: keyPath, message: `Unknown field ${keyPath}` };
        });
      default:
        return { path, message: `${field}: ${issue.message}` };
    }
  }).flat();
}
