import type { Command } from 'commander';
import type { Catalogs } from '../../../contract/index.js';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { ExitCode, UsageError, type ExitCodeValue } from '../../errors.js';
import { writeLine } from '../../io.js';
import type { Wrap } from '../../action.js';

export interface TemplatesValidateOptions extends GlobalOptions {
  file?: string;
  offline?: boolean;
}

export function registerTemplatesValidate(parent: Command, deps: CliDeps, wrap: Wrap): void {
  parent
    .command('validate')
    .description("Check template documents against the service's catalogs (nothing is written)")
    .argument('[files...]', 'template documents as JSON')
    .option('-f, --file <path>', 'a template document as JSON (`-` reads stdin)')
    .option('--offline', 'check against the catalogs bundled with reportctl (the ones `serve` starts with), without the service')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates validate template.json
  $ reportctl templates validate templates/*.json --json
  $ reportctl templates get ID --json | reportctl templates validate --file -
  $ reportctl templates validate --offline template.json

The catalogs are read once per command and kept for a few minutes per service and key, so a
loop over many files costs no more requests than one.

Exit status: 0 when every document is valid, 1 when any is not, 2 on usage errors.`,
    )
    .action(
      wrap(async (files: string[], _o: unknown, command: Command) => {
        const options = command.optsWithGlobals<TemplatesValidateOptions>();
        return runTemplatesValidate(options.file === undefined ? files : [...files, options.file], options, deps);
      }),
    );
}

export async function runTemplatesValidate(files: string[], options: TemplatesValidateOptions, deps: CliDeps): Promise<ExitCodeValue> {
  if (files.length === 0) throw new UsageError('missing a template document to check', 'give FILE… or --file PATH (`-` reads stdin)');
  const [{ readJsonInput }, { validateTemplateBody }, { printVerdicts, invalidDocuments }] = await Promise.all([
    import('../../input.js'),
    import('../../../contract/index.js'),
    import('./shared/verdicts.js'),
  ]);
  // Every file is read first: a bad one is a usage error before any request.
  const documents = await Promise.all(files.map(async (file) => ({ file, body: await readJsonInput(file, deps, file === options.file ? '--file' : 'file') })));
  const catalogs = await catalogsToCheckWith(options, deps);
  const checked = documents.map(({ file, body }) => ({ label: file === '-' ? 'stdin' : file, body, validation: validateTemplateBody(body, catalogs) }));
  const invalid = await printVerdicts(checked, catalogs, deps, { json: options.json, named: files.length > 1 });
  if (invalid > 0) throw invalidDocuments(invalid, files.length, checked[0]!.label);
  return ExitCode.ok;
}

/** The service's catalogs (cached for a few minutes), or with --offline the bundled ones. */
async function catalogsToCheckWith(options: TemplatesValidateOptions, deps: CliDeps): Promise<Catalogs> {
  if (options.offline) {
    const { seedCatalogs } = await import('../../../contract/default-catalogs.js');
    writeLine(deps.io.stderr, "checked offline, against the catalogs bundled with reportctl (those `serve` starts with); the service's may differ");
    return seedCatalogs;
  }
  const [{ cachedCatalogs }] = await Promise.all([import('../../catalog-cache.js')]);
  const session = await deps.api(options);
  const catalogs = await cachedCatalogs(session, deps);
  session.progress.stop();
  return catalogs;
}
