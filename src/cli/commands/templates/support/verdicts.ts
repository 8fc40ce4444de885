import type { Catalogs, TemplateValidation } from '../../../../contract/index.js';
import type { CliDeps } from '../../../context.js';
import { ExitCode, SilentFailure } from '../../../errors.js';
import { issueLines } from '../../../explain.js';
import { writeLine } from '../../../io.js';
import { escapeControls } from '../../../sanitize.js';
import { explainTemplateIssues } from './issue-hints.js';

/**
 * A document checked against the catalogs, or one that could not be read or parsed (`reason`),
 * and where it came from (a file, or `stdin`).
 */
export type CheckedDocument = { label: string; body: unknown; validation: TemplateValidation } | { label: string; reason: string };

/**
 * Each document's verdict on stdout, as `templates validate` prints it: `FILE: valid`, or
 * `FILE: invalid: N issues` with each issue at its field and the catalogs' hints; with --json,
 * one `{file, valid, issues}` line each. Returns how many are invalid.
 */
export async function printVerdicts(
  documents: readonly CheckedDocument[],
  catalogs: Catalogs | undefined,
  deps: CliDeps,
  options: { json?: boolean | undefined; named: boolean },
): Promise<number> {
  let invalid = 0;
  for (const document of documents) {
    const { label } = document;
    const validation = 'validation' in document ? document.validation : undefined;
    const issues = validation?.success === false ? validation.issues : [];
    const valid = validation?.success === true;
    if (!valid) invalid += 1;
    if (options.json) {
      writeLine(deps.io.stdout, JSON.stringify({ file: label, valid, issues, ...('reason' in document ? { reason: document.reason } : {}) }));
      continue;
    }
    const verdict = valid ? 'valid' : `invalid: ${'reason' in document ? document.reason : issues.length === 1 ? '1 issue' : `${issues.length} issues`}`;
    writeLine(deps.io.stdout, escapeControls(options.named ? `${label}: ${verdict}` : verdict));
    if (!('body' in document)) continue;
    for (const line of issueLines(issues)) writeLine(deps.io.stdout, line);
    for (const hint of await explainTemplateIssues(issues, document.body, async () => catalogs!)) writeLine(deps.io.stdout, `hint: ${hint}`);
  }
  return invalid;
}

/** The failure after the verdicts were printed: exit 1, and for --json the reason. */
export function invalidDocuments(invalid: number, total: number, only?: string): SilentFailure {
  const message = total === 1 && only !== undefined ? `${only} is not a valid template` : `${invalid} of ${total} documents are not valid templates`;
  return new SilentFailure(ExitCode.failed, message, { code: 'VALIDATION_FAILED' });
}
