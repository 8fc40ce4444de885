import type { Command } from 'commander';
import { visible } from '../../sanitize.js';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { CliError, ExitCode, SilentFailure, UsageError } from '../../errors.js';
import { isStdoutTTY, writeLine } from '../../io.js';
import type { Wrap } from '../../program.js';

export function registerTemplatesEdit(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('edit')
    .description('Edit the whole template in $EDITOR, check it locally, then replace it (PUT)')
    .argument('<id>', 'template id')
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

export async function runTemplatesEdit(id: string, options: GlobalOptions, deps: CliDeps): Promise<void> {
  const editor = deps.env.VISUAL || deps.env.EDITOR || (isStdoutTTY(deps.io) ? 'vi' : undefined);
  if (!editor) throw new UsageError('no editor to open', 'set EDITOR (or VISUAL)');
  const [{ connect }, { validateTemplateBody }, { explainTemplateIssues, issueLines }, { submitTemplate }, { printJson }] = await Promise.all([
    import('../../session.js'),
    import('../../../contract/index.js'),
    import('./explain.js'),
    import('./submit.js'),
    import('../../output.js'),
  ]);
  const session = await connect(options, deps);
  const template = await session.api.templates.get(id);
  const original = JSON.stringify(template, null, 2) + '\n';
  const file = join(await mkdtemp(join(tmpdir(), 'reportctl-edit-')), `template-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  await writeFile(file, original, { mode: 0o600 });

  const status = await runEditor(editor, file);
  if (status !== 0) throw new CliError(`the editor exited with status ${status}; nothing was sent (your file: ${file})`, ExitCode.failed);
  const edited = await readFile(file, 'utf8');
  let body: unknown;
  try {
    body = JSON.parse(edited);
  } catch (error) {
    throw new CliError(`the edited file is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing was sent`, ExitCode.failed, `fix it and run: reportctl templates replace ${id} --file ${file}`);
  }
  // Unchanged also when the editor only re-formatted the JSON.
  if (edited === original || isDeepStrictEqual(body, JSON.parse(original))) {
    await removeEditDir(file);
    writeLine(deps.io.stderr, 'no changes; nothing sent');
    return;
  }
  const catalogs = await session.api.catalogs.all();
  const validation = validateTemplateBody(body, catalogs);
  if (!validation.success) {
    writeLine(deps.io.stderr, 'reportctl: the edited template is not valid; nothing was sent');
    for (const line of issueLines(validation.issues)) writeLine(deps.io.stderr, line);
    for (const hint of await explainTemplateIssues(validation.issues, body, async () => catalogs)) writeLine(deps.io.stderr, `hint: ${hint}`);
    writeLine(deps.io.stderr, `hint: your edit is kept in ${file}; fix it and run: reportctl templates replace ${id} --file ${file}`);
    throw new SilentFailure(ExitCode.failed);
  }
  const replaced = await submitTemplate(deps, session.api, body, (value) => session.api.templates.replace(id, value), `the edit of ${id}`);
  await removeEditDir(file);
  if (options.json) return printJson(deps, replaced);
  writeLine(deps.io.stdout, replaced.id);
  writeLine(deps.io.stderr, `replaced template ${replaced.id} (${visible(replaced.name)})`);
}
