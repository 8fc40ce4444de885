import { MAX_TEMPLATE_BYTES, validateTemplateBody, type Catalogs, type TemplateBody, type ValidationIssue } from '../contract/index.js';
import { ApiError, validationFailed } from './errors.js';
import { refusedValues } from './http/json-body.js';

/**
 * What a template must be to be stored, however it arrives (POST, PUT, a snapshot import):
 * valid against the catalogs, and small enough that a page of 100 stays under 26 MiB.
 */
export function storableTemplate(body: unknown, catalogs: Catalogs): TemplateBody {
  const validation = validateTemplateBody(body, catalogs);
  if (!validation.success) throw validationFailed(validation.issues);
  if (Buffer.byteLength(JSON.stringify(validation.template)) > MAX_TEMPLATE_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `A stored template is at most ${MAX_TEMPLATE_BYTES / 1024} KiB (as JSON, with its defaults)`);
  }
  return validation.template;
}

/**
 * A whole template document checked as the API checks a body: first the values any body must
 * not hold (json-body.ts), then storableTemplate. Each issue is at its path in the document.
 */
export function templateIssues(document: unknown, catalogs: Catalogs): ValidationIssue[] {
  const refused = refusedValues(document);
  if (refused.length > 0) return refused;
  try {
    storableTemplate(document, catalogs);
    return [];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error.issues ?? [{ path: '', message: error.message }];
  }
}
