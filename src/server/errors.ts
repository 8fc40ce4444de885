import type { z } from 'zod';
import { errorStatus, toValidationIssues, type ErrorCode, type ValidationIssue } from '../contract/index.js';

/** A refusal the service makes on purpose; the one error handler turns it into the response. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }

  body(): { error: ErrorCode; message: string; issues?: ValidationIssue[] } {
    return this.issues ? { error: this.code, message: this.message, issues: this.issues } : { error: this.code, message: this.message };
  }
}

export const notFound = (what = 'Resource') => new ApiError('NOT_FOUND', `${what} not found`);

export function validationFailed(issues: ValidationIssue[], what = 'Request body'): ApiError {
  return new ApiError('VALIDATION_FAILED', `${what} failed validation`, issues);
}

/** Parse with a contract schema or refuse 400 with one issue per rejected field. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, what = 'Request body'): z.infer<T> {
  // reportInput lets the issue mapper tell a missing field from a wrongly typed one.
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationFailed(toValidationIssues(result.error), what);
  return result.data;
}
