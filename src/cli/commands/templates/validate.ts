import type { Catalogs } from '../../../contract/index.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { ExitCode, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { invalidDocuments, printVerdicts, type CheckedDocument } from './support/verdicts.js';
import * as input from '../../cmdutil/input.js';

const verb = (parent: Parent) =>
  parent
    .command('validate')
    .description("Check template documents against the service's catalogs (nothing is written)")
    .argument('[files...]', 'template documents as JSON')
    .option('-f, --file <path>', 'a template document as JSON (`-` reads stdin)')
    .option('--offline', 'check against the catalogs bundled with reportctl (the ones `serve` starts with), without the service')
    .option('--unique-names', "also refuse a template name that another *.json file of the file's folder holds, as diff and apply do; every verdict names its file")
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates validate template.json
  $ reportctl templates validate templates/*.json --json
  $ reportctl templates get ID --json | reportctl templates validate --file -
  $ reportctl templates validate --offline template.json
  $ reportctl templates validate --offline --unique-names templates/lot-7.json

With --unique-names (the pre-commit hook's mode) the files beside each one are read for their
names only, so a commit that stages one of two files holding a name is refused.

The catalogs are read once per command and kept for a few minutes per service and key, so a
loop over many files costs no more requests than one.

Exit status: 0 when every document is valid, 1 when any is not (a file that is not JSON is
not valid; the others are still checked), 2 on usage errors and when a file cannot be read or
is not UTF-8 (its verdict names it; the others are still checked).`,
    );
export type TemplatesValidateOptions = OptionsOf<typeof verb>;

export function registerTemplatesValidate(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesValidateOptions, [files: string[]]> = (options, files) =>
    runTemplatesValidate(options.file === undefined ? files : [...files, options.file], options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesValidate(files: string[], options: TemplatesValidateOptions, deps: CliDeps): Promise<ExitCodeValue> {
  if (files.length === 0) throw new UsageError('missing a template document to check', 'give FILE… or --file PATH (`-` reads stdin)');
  const { checkTemplateDocument } = await import('../../../contract/index.js');
  // Every file is read first, and one that cannot be read or parsed is a verdict of its own:
  // the others are still checked.
  const documents = await Promise.all(files.map((file) => readDocument(file, deps)));
  const catalogs = documents.some((document) => 'body' in document) ? await catalogsToCheckWith(options, deps) : undefined;
  let checked = documents.map((document): CheckedDocument => {
    const label = document.file === '-' ? 'stdin' : document.file;
    return 'body' in document ? { label, body: document.body, validation: checkTemplateDocument(document.body, catalogs!) } : { label, reason: document.reason };
  });
  if (options.uniqueNames) checked = await (await import('./support/name-clashes.js')).withNameClashes(checked);
  // A file that could not be read (missing, a folder, not UTF-8) is named, and makes it exit 2.
  const unreadable = documents.some((document) => 'unreadable' in document);
  const named = files.length > 1 || options.uniqueNames === true || unreadable;
  const invalid = await printVerdicts(checked, catalogs, deps, { json: options.json, named });
  if (invalid > 0) throw invalidDocuments(invalid, files.length, checked[0]!.label, unreadable ? ExitCode.usage : ExitCode.failed);
  return ExitCode.ok;
}

type Document = { file: string } & ({ body: unknown } | { reason: string; unreadable?: true });

/** A file's document, or why there is none (`no such file`, `not valid JSON: line 3, …`). */
async function readDocument(file: string, deps: CliDeps): Promise<Document> {
  let text: string;
  try {
    text = await input.readText(file, deps);
  } catch (error) {
    return { file, reason: `cannot read it: ${input.unreadableReason(error)}`, unreadable: true };
  }
  const parsed = await input.parseJson(text);
  return parsed.success ? { file, body: parsed.value } : { file, reason: parsed.reason };
}

/** The service's catalogs (cached for a few minutes), or with --offline the bundled ones. */
async function catalogsToCheckWith(options: TemplatesValidateOptions, deps: CliDeps): Promise<Catalogs> {
  if (options.offline) {
    const { seedCatalogs } = await import('../../../contract/default-catalogs.js');
    writeLine(deps.io.stderr, "checked offline, against the catalogs bundled with reportctl (those `serve` starts with); the service's may differ");
    return seedCatalogs;
  }
  const session = await deps.api(options);
  // Loaded here: the cache loads node:crypto, which other commands never need.
  const { cachedCatalogs } = await import('../../session/catalog-cache.js');
  const catalogs = await cachedCatalogs(session, deps);
  deps.io.progress.stop();
  return catalogs;
}
