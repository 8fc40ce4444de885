import type { Catalogs, TemplateValidation } from '../../../../contract/index.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import type { Writable } from 'node:stream';
import { ExitCode, SilentFailure, type ExitCodeValue } from '../../../cmdutil/errors.js';
import { issueLines } from '../../../cmdutil/explain.js';
import { writeLine } from '../../../iostreams/io.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
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
  options: { json?: boolean | undefined; named: boolean; stream?: Writable },
): Promise<number> {
  const out = options.stream ?? deps.io.stdout;
  let invalid = 0;
  for (const document of documents) {
    const { label } = document;
    const validation = 'validation' in document ? document.validation : undefined;
    const issues = validation?.success === false ? validation.issues : [];
    const valid = validation?.success === true;
    if (!valid) invalid += 1;
    if (options.json) {
      writeLine(out, JSON.stringify(verdictJson(document)));
      continue;
    }
    const verdict = valid ? 'valid' : `invalid: ${'reason' in document ? document.reason : issues.length === 1 ? '1 issue' : `${issues.length} issues`}`;
    writeLine(out, escapeControls(options.named ? `${label}: ${verdict}` : verdict));
    if (!('body' in document)) continue;
    for (const line of issueLines(issues)) writeLine(out, line);
    for (const hint of await explainTemplateIssues(issues, document.body, async () => catalogs!)) writeLine(out, `hint: ${hint}`);
  }
  return invalid;
}

/** A document's verdict as `templates validate --json` prints it. */
export function verdictJson(document: CheckedDocument) {
  const validation = 'validation' in document ? document.validation : undefined;
  return {
    file: document.label,
    valid: validation?.success === true,
    issues: validation?.success === false ? validation.issues : [],
    ...('reason' in document ? { reason: document.reason } : {}),
  };
}
export type VerdictJson = ReturnType<typeof verdictJson>;

/** The failure after the verdicts were printed: exit 1 unless said, and for --json the reason. */
export function invalidDocuments(invalid: number, total: number, only?: string, exitCode: ExitCodeValue = ExitCode.failed): SilentFailure {
  const message = total === 1 && only !== undefined ? `${only} is not a valid template` : `${invalid} of ${total} documents are not valid templates`;
  return new SilentFailure(exitCode, message, { code: 'VALIDATION_FAILED' });
}
