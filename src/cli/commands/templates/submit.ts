import { ApiResponseError } from '../../../client/errors.js';
import type { ServiceApi } from '../../../client/api.js';
import { templateBodySchema, toValidationIssues, type Template } from '../../../contract/index.js';
import type { CliDeps } from '../../context.js';
import { ExitCode, SilentFailure } from '../../errors.js';
import { writeLine } from '../../io.js';
import { visible } from '../../sanitize.js';
import { explainTemplateIssues, issueLines } from './explain.js';

/**
 * Sends a template body, after the local schema check (a mistake is heard about without a
 * round trip). A 400 from the service is shown field by field with the catalogs' help.
 */
export async function submitTemplate(
  deps: CliDeps,
  api: ServiceApi,
  body: unknown,
  send: (body: unknown) => Promise<Template>,
  what: string,
): Promise<Template> {
  const local = templateBodySchema.safeParse(body, { reportInput: true });
  if (!local.success) {
    await reportIssues(deps, api, body, toValidationIssues(local.error), `${what} is not a valid template (checked locally; nothing was sent)`);
  }
  try {
    return await send(body);
  } catch (error) {
    if (error instanceof ApiResponseError && error.status === 400 && error.issues.length > 0) {
      await reportIssues(deps, api, body, error.issues, `the service rejected ${what}: ${error.message}`);
    }
    throw error;
  }
}

async function reportIssues(
  deps: CliDeps,
  api: ServiceApi,
  body: unknown,
  issues: Parameters<typeof issueLines>[0],
  headline: string,
): Promise<never> {
  writeLine(deps.io.stderr, `reportctl: ${visible(headline)}`);
  for (const line of issueLines(issues)) writeLine(deps.io.stderr, line);
  let hints: string[] = [];
  try {
    hints = await explainTemplateIssues(issues, body, () => api.catalogs.all());
  } catch {
    // The hints are a courtesy: without the catalogs the issues alone still stand.
  }
  for (const hint of hints) writeLine(deps.io.stderr, `hint: ${hint}`);
  throw new SilentFailure(ExitCode.failed);
}
