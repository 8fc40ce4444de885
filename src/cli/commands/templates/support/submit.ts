import { ApiResponseError } from '../../../../client/errors.js';
import type { ServiceApi } from '../../../../client/api.js';
import { conforms, shapes } from '../../../../client/response-validation.js';
import type { Catalogs, Template, ValidationIssue } from '../../../../contract/index.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { withServiceId } from '../../../session/resolve.js';
import { explainTemplateIssues } from './issue-hints.js';

/**
 * Sends a template body, after the local schema check (a mistake is heard about without
 * sending it; the catalogs are read only then, for the rules they hold). A 400 from the service is shown field by field with the catalogs' help.
 */
export async function submitTemplate(
  api: ServiceApi,
  body: unknown,
  send: (body: unknown) => Promise<Template>,
  what: string,
): Promise<Template> {
  // reportInput lets the issue mapper tell a missing field from a wrongly typed one.
  const local = await conforms(shapes.templateBody, body, { reportInput: true });
  if (!local.success) {
    const { toValidationIssues, catalogIssuesBeside } = await import('../../../../contract/index.js');
    const issues = toValidationIssues(local.error);
    // The catalog rules the body can still be held to come in the same report; without the
    // catalogs the schema's issues alone still stand.
    const catalogs = await api.catalogs.all().catch(() => undefined);
    if (catalogs) issues.push(...catalogIssuesBeside(body, issues, catalogs));
    throw await invalidTemplate(`${what} is not a valid template (checked locally; nothing was sent)`, issues, body, catalogs ? async () => catalogs : () => api.catalogs.all());
  }
  try {
    return withServiceId(api, await send(body));
  } catch (error) {
    if (error instanceof ApiResponseError && error.status === 400 && error.issues.length > 0) {
      throw await invalidTemplate(`the service rejected ${what}: ${error.message}`, error.issues, body, () => api.catalogs.all(), error);
    }
    throw error;
  }
}

/**
 * A template's issues as one failure: each at its field, with the catalogs' help as hints.
 * A rejection by the service keeps its code, status and message for scripts.
 */
export async function invalidTemplate(
  headline: string,
  issues: readonly ValidationIssue[],
  body: unknown,
  loadCatalogs: () => Promise<Catalogs>,
  rejection?: ApiResponseError,
  extraHints: readonly string[] = [],
): Promise<CliError> {
  let hints: string[] = [];
  try {
    hints = await explainTemplateIssues(issues, body, loadCatalogs);
  } catch {
    // The hints are a courtesy: without the catalogs the issues alone still stand.
  }
  return new CliError(headline, ExitCode.failed, undefined, {
    code: rejection?.code ?? 'VALIDATION_FAILED',
    ...(rejection ? { status: rejection.status, message: rejection.message } : {}),
    issues,
    hints: [...hints, ...extraHints],
  });
}
