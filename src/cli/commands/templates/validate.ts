import type { Command } from 'commander';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { ExitCode, SilentFailure, type ExitCodeValue } from '../../errors.js';
import { writeLine } from '../../io.js';
import type { Wrap } from '../../program.js';

export interface TemplatesValidateOptions extends GlobalOptions {
  file: string;
}

export function registerTemplatesValidate(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('validate')
    .description("Check a template document locally against the service's catalogs (nothing is written)")
    .requiredOption('-f, --file <path>', 'the template document as JSON (`-` reads stdin)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates validate --file template.json
  $ reportctl templates get ID --json | reportctl templates validate --file -

Exit status: 0 when valid, 1 when not.`,
    )
    .action(wrap(async (_o: unknown, command: Command) => runTemplatesValidate(command.optsWithGlobals<TemplatesValidateOptions>(), deps)));
}

export async function runTemplatesValidate(options: TemplatesValidateOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const [{ connect }, { readJsonInput }, { validateTemplateBody }, { explainTemplateIssues }, { issueLines }] = await Promise.all([
    import('../../session.js'),
    import('../../input.js'),
    import('../../../contract/index.js'),
    import('./explain.js'),
    import('../../explain.js'),
  ]);
  const body = await readJsonInput(options.file, deps);
  const session = await connect(options, deps);
  const catalogs = await session.api.catalogs.all();
  const validation = validateTemplateBody(body, catalogs);
  const issues = validation.success ? [] : validation.issues;
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify({ valid: validation.success, issues }));
  } else if (validation.success) {
    writeLine(deps.io.stdout, 'valid');
  } else {
    writeLine(deps.io.stdout, `invalid: ${issues.length === 1 ? '1 issue' : `${issues.length} issues`}`);
    for (const line of issueLines(issues)) writeLine(deps.io.stdout, line);
    for (const hint of await explainTemplateIssues(issues, body, async () => catalogs)) writeLine(deps.io.stdout, `hint: ${hint}`);
  }
  if (!validation.success) {
    throw new SilentFailure(ExitCode.failed, `${options.file === '-' ? 'stdin' : options.file} is not a valid template`, { code: 'VALIDATION_FAILED', issues });
  }
  return ExitCode.ok;
}
