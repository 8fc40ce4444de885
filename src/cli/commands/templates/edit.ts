import type { Command } from 'commander';
import { visible } from '../../sanitize.js';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { canPrompt, isStdoutTTY, writeLine } from '../../io.js';
import type { Wrap } from '../../action.js';

export function registerTemplatesEdit(parent: Command, deps: CliDeps, wrap: Wrap): void {
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
    )
    .action(wrap(async (id: string, _o: unknown, command: Command) => runTemplatesEdit(id, command.optsWithGlobals<GlobalOptions>(), deps)));
}

function runEditor(editor: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // Through the shell, so EDITOR may carry arguments ("code --wait").
    const child = spawn(`${editor} "${file}"`, { shell: true, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
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

export async function runTemplatesEdit(reference: string, options: GlobalOptions, deps: CliDeps): Promise<void> {
  const editor = deps.env.VISUAL || deps.env.EDITOR || (isStdoutTTY(deps.io) ? 'vi' : undefined);
  if (!editor) throw new UsageError('no editor to open', 'set EDITOR (or VISUAL)');
  const [{ connect }, { validateTemplateBody }, { invalidTemplate, submitTemplate }, { printJson }, { resolveTemplate }, { parseJsonText }, { explainError }] =
    await Promise.all([
      import('../../session.js'),
      import('../../../contract/index.js'),
      import('./submit.js'),
      import('../../output.js'),
      import('../../resolve.js'),
      import('../../input.js'),
      import('../../explain.js'),
    ]);
  const { cachedCatalogs } = await import('../../catalog-cache.js');
  const session = await connect(options, deps);
  const template = await resolveTemplate(session.api, reference, deps.signal);
  const id = template.id;
  const original = JSON.stringify(template, null, 2) + '\n';
  const file = join(await mkdtemp(join(tmpdir(), 'reportctl-edit-')), `template-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  const kept = `your edit is kept in ${file}; fix it and run: reportctl templates replace ${id} --file ${file}`;
  // On a terminal a rejected edit reopens with the errors on top, as kubectl edit does.
  const reopen = canPrompt(deps.io, deps.env, options.input === false);
  let offered = original;
  let rejection: CliError | undefined;
  for (;;) {
    await writeFile(file, offered, { mode: 0o600 });
    const status = await runEditor(editor, file);
    if (status !== 0) throw new CliError(`the editor exited with status ${status}; nothing was sent (your file: ${file})`, ExitCode.failed);
    const edited = await readFile(file, 'utf8');
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
      const validation = validateTemplateBody(body, catalogs);
      if (!validation.success) {
        throw await invalidTemplate('the edited template is not valid; nothing was sent', validation.issues, body, async () => catalogs, undefined, [kept]);
      }
      const replaced = await submitTemplate(session.api, body, (value) => session.api.templates.replace(id, value), `the edit of ${id}`);
      await removeEditDir(file);
      if (options.json) return printJson(deps, replaced);
      writeLine(deps.io.stdout, replaced.id);
      writeLine(deps.io.stderr, `replaced template ${replaced.id} (${visible(replaced.name)})`);
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
