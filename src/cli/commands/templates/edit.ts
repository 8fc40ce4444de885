import { escapeControls } from '../../iostreams/sanitize.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, NOT_UTF8_HINT, UsageError } from '../../cmdutil/errors.js';
import { NotUtf8Error } from '../../../encoding/utf8.js';
import { writeLine } from '../../iostreams/io.js';
import { EditorFailed } from '../../iostreams/editor.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { invalidTemplate, submitTemplate } from './support/submit.js';
import { printJson } from '../../output/output.js';
import { resolveTemplate } from '../../session/resolve.js';
import { parseJsonText } from '../../cmdutil/input.js';
import { explainError } from '../../cmdutil/explain.js';

const verb = (parent: Parent) =>
  parent
    .command('edit')
    .description('Edit the whole template in $EDITOR, check it locally, then replace it (PUT)')
    .argument('<id>', 'template id, a unique prefix of it (6+ characters) or the exact name')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates edit ID
  $ EDITOR="code --wait" reportctl templates edit ID

An unchanged file sends nothing. If the edit is not valid, nothing is sent and the file is kept.`,
    );
export type TemplatesEditOptions = OptionsOf<typeof verb>;

export function registerTemplatesEdit(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesEditOptions, [id: string]> = (options, id) => runTemplatesEdit(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

/** The edit is kept only while it still matters: when it could not be sent. */
async function removeEditDir(file: string): Promise<void> {
  await rm(dirname(file), { recursive: true, force: true });
}

/** The comment block a rejected edit reopens with; read back, it is dropped. */
const COMMENT = '// ';

function withErrors(lines: string[], text: string): string {
  const header = [
    'reportctl: the edit was not applied. Fix it and save to try again;',
    'save it unchanged, or empty, to give up. These lines are dropped when it is read.',
    ...lines,
  ];
  return header.map((line) => COMMENT + line).join('\n') + '\n' + text;
}

function withoutErrors(text: string): string {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.startsWith(COMMENT.trimEnd())) first += 1;
  return lines.slice(first).join('\n');
}

export async function runTemplatesEdit(reference: string, options: TemplatesEditOptions, deps: CliDeps): Promise<void> {
  if (deps.editor.command === undefined) throw new UsageError('no editor to open', 'set EDITOR (or VISUAL)');
  // The contract loads zod; the cache, node:crypto.
  const [{ checkTemplateDocument }, { cachedCatalogs }] = await Promise.all([import('../../../contract/index.js'), import('../../session/catalog-cache.js')]);
  const session = await deps.api(options);
  const template = await resolveTemplate(session.api, reference, deps.signal);
  const id = template.id;
  const original = JSON.stringify(template, null, 2) + '\n';
  const file = join(await mkdtemp(join(tmpdir(), 'reportctl-edit-')), `template-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  const kept = `your edit is kept in ${file}; fix it and run: reportctl templates replace ${id} --file ${file}`;
  // On a terminal a rejected edit reopens with the errors on top, as kubectl edit does.
  const reopen = deps.io.canPrompt(options.input === false);
  let offered = original;
  let rejection: CliError | undefined;
  for (;;) {
    const edited = await deps.editor.edit(file, offered).catch((error: unknown) => {
      if (error instanceof EditorFailed) throw new CliError(`${error.message}; nothing was sent (your file: ${file})`, ExitCode.failed);
      if (error instanceof NotUtf8Error) throw new CliError(`your edit (${file}) is ${error.message}; nothing was sent`, ExitCode.usage, NOT_UTF8_HINT, { hints: [kept] });
      throw error;
    });
    if (rejection && (edited === offered || withoutErrors(edited).trim() === '')) {
      throw new CliError(`edit given up; nothing was sent (${rejection.message})`, ExitCode.failed, kept, { ...rejection.details, hints: [] });
    }
    const text = withoutErrors(edited);
    try {
      const body = await parseJsonText(text, 'your edit');
      // Unchanged also when the editor only re-formatted the JSON.
      if (isDeepStrictEqual(body, JSON.parse(original))) {
        await removeEditDir(file);
        writeLine(deps.io.stderr, 'no changes; nothing sent');
        return;
      }
      const catalogs = await cachedCatalogs(session, deps);
      const validation = checkTemplateDocument(body, catalogs);
      if (!validation.success) {
        throw await invalidTemplate('the edited template is not valid; nothing was sent', validation.issues, body, async () => catalogs, undefined, [kept]);
      }
      const replaced = await submitTemplate(session.api, body, (value) => session.api.templates.replace(id, value), `the edit of ${id}`);
      await removeEditDir(file);
      if (options.json) return printJson(deps, replaced);
      writeLine(deps.io.stdout, replaced.id);
      writeLine(deps.io.stderr, `replaced template ${replaced.id} (${escapeControls(replaced.name)})`);
      return;
    } catch (error) {
      // What the user can fix in the editor: bad JSON, a template that is not valid, a 400.
      const fixable = error instanceof CliError && (error instanceof UsageError || error.details.issues !== undefined);
      if (!fixable) throw error;
      if (!reopen) {
        // The same words and exit code as a bad --file, plus where the edit is kept.
        throw error instanceof UsageError ? new UsageError(`${error.message}; nothing was sent`, kept) : error;
      }
      rejection = error;
      offered = withErrors(explainError(error).lines.filter((line) => !line.includes(file)), text);
    }
  }
}
