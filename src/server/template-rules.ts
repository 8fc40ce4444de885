import { checkTemplateDocument, type Catalogs, type TemplateBody, type ValidationIssue } from '../contract/index.js';
import { ApiError, validationFailed } from './errors.js';

/**
 * What a template must be to be stored, however it arrives (POST, PUT, a snapshot import):
 * every rule of contract/template-rules.ts, which the CLI's checks share.
 */
export function storableTemplate(body: unknown, catalogs: Catalogs): TemplateBody {
  const check = checkTemplateDocument(body, catalogs);
  if (check.success) return check.template;
  if (check.error === 'PAYLOAD_TOO_LARGE') throw new ApiError('PAYLOAD_TOO_LARGE', check.issues[0]!.message);
  throw validationFailed(check.issues);
}

/** A whole template document's issues, each at its path in the document (none when it is storable). */
export function templateIssues(document: unknown, catalogs: Catalogs): ValidationIssue[] {
  const check = checkTemplateDocument(document, catalogs);
  return check.success ? [] : check.issues;
}
