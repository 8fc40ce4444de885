import type { Catalogs, TemplateValidation } from '../../../../contract/index.js';
import type { CliDeps } from '../../../context.js';
import { ExitCode, SilentFailure } from '../../../errors.js';
import { issueLines } from '../../../explain.js';
import { writeLine } from '../../../io.js';
import { explainTemplateIssues } from './issue-hints.js';

/** A document checked against the catalogs, and where it came from (a file, or `stdin`). */
export interface CheckedDocument {
  label: string;
  body: unknown;
  validation: TemplateValidation;
}

/**
 * Each document's verdict on stdout, as `templates validate` prints it: `FILE: valid`, or
 * `FILE: invalid: N issues` with each issue at its field and the catalogs' hints; with --json,
 * one `{file, valid, issues}` line each. Returns how many are invalid.
 */
export async function printVerdicts(
  documents: readonly CheckedDocument[],
  catalogs: Catalogs,
  deps: CliDeps,
  options: { json?: boolean | undefined; named: boolean },
): Promise<number> {
  let invalid = 0;
  for (const { label, body, validation } of documents) {
    const issues = validation.success ? [] : validation.issues;
    if (!validation.success) invalid += 1;
    if (options.json) {
      writeLine(deps.io.stdout, JSON.stringify({ file: label, valid: validation.success, issues }));
      continue;
    }
    const verdict = validation.success ? 'valid' : `invalid: ${issues.length === 1 ? '1 issue' : `${issues.length} issues`}`;
    writeLine(deps.io.stdout, options.named ? `${label}: ${verdict}` : verdict);
    for (const line of issueLines(issues)) writeLine(deps.io.stdout, line);
    for (const hint of await explainTemplateIssues(issues, body, async () => catalogs)) writeLine(deps.io.stdout, `hint: ${hint}`);
  }
  return invalid;
}

/** The failure after the verdicts were printed: exit 1, and for --json the reason. */
export function invalidDocuments(invalid: number, total: number, only?: string): SilentFailure {
  const message = total === 1 && only !== undefined ? `${only} is not a valid template` : `${invalid} of ${total} documents are not valid templates`;
  return new SilentFailure(ExitCode.failed, message, { code: 'VALIDATION_FAILED' });
}
