import type { CliDeps } from '../../cmdutil/context.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { CliError, ExitCode, UsageError } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { Session } from '../../session/session.js';
import { submitTemplate } from './support/submit.js';
import { printJson } from '../../output/output.js';
import { closestMatch } from '../../../contract/closest-match.js';
import { readJsonInput } from '../../cmdutil/input.js';
import { runCreateWizard } from './support/wizard.js';

const verb = (parent: Parent) =>
  parent
    .command('create')
    .description('Create a template from a file, from a preset, or (on a terminal) step by step')
    .option('-f, --file <path>', 'the template document as JSON (`-` reads stdin)')
    .option('--from-preset <id>', 'start from a preset (see `templates presets`)')
    .option('--name <name>', 'the template name (required with --from-preset; overrides the file)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates create --from-preset preset-counting-summary --name "Lot 7 — stand count"
  $ reportctl templates create --file template.json
  $ reportctl templates create            # on a terminal: a guided walk through the catalogs

Prints the new template's id (the whole document with --json).`,
    );
export type TemplatesCreateOptions = OptionsOf<typeof verb>;

export function registerTemplatesCreate(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesCreateOptions> = (options) => runTemplatesCreate(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

async function presetBody(session: Session, presetId: string, deps: CliDeps): Promise<Record<string, unknown>> {
  const ids: string[] = [];
  for await (const preset of session.api.presets.listAll({}, deps.signal)) {
    if (preset.id === presetId) return { ...preset.seedPayload };
    ids.push(preset.id);
  }
  const guess = closestMatch(presetId, ids);
  throw new CliError(`no preset ${presetId}`, ExitCode.notFound, guess ? `did you mean ${guess}? (see \`reportctl templates presets\`)` : 'see `reportctl templates presets`');
}

export async function runTemplatesCreate(options: TemplatesCreateOptions, deps: CliDeps): Promise<void> {
  if (options.file !== undefined && options.fromPreset !== undefined) {
    throw new UsageError('give either --file or --from-preset, not both');
  }
  const interactive = deps.io.canPrompt(options.input === false);
  if (options.file === undefined && options.fromPreset === undefined && !interactive) {
    throw new UsageError('nothing to create from', 'pass --file PATH, or --from-preset ID --name NAME (prompts need a terminal)');
  }
  if (options.fromPreset !== undefined && options.name === undefined && !interactive) {
    throw new UsageError('--from-preset needs --name NAME (the new template\'s name)');
  }
  const session = await deps.api(options);

  let body: unknown;
  if (options.file !== undefined) {
    body = await readJsonInput(options.file, deps);
    if (options.name !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      body = { ...(body as Record<string, unknown>), name: options.name };
    }
  } else if (options.fromPreset !== undefined) {
    const seed = await presetBody(session, options.fromPreset, deps);
    let name = options.name;
    if (name === undefined) {
      name = await deps.prompter.input({
        message: 'Template name',
        required: true,
        validate: (value) => (value.trim().length > 0 && value.length <= 200) || '1 to 200 characters',
      });
    }
    body = { ...seed, name };
  } else {
    const fromWizard = await runCreateWizard(session, options, deps);
    if (fromWizard === null) {
      writeLine(deps.io.stderr, 'nothing created');
      return;
    }
    body = fromWizard;
  }

  const created = await submitTemplate(session.api, body, (value) => session.api.templates.create(value), 'the document');
  if (options.json) return printJson(deps, created);
  writeLine(deps.io.stdout, created.id);
  writeLine(deps.io.stderr, `created template ${created.id} (${escapeControls(created.name)})`);
}
