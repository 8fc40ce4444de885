import { validateTemplateBody, type Template, type TemplateBody } from '../../../../contract/index.js';
import { cachedCatalogs } from '../../../catalog-cache.js';
import type { CliDeps, GlobalOptions } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import type { Session } from '../../../session.js';
import { filesByName, quoted, readTemplateFiles, serviceTemplatesByName, templateFileText } from './folder.js';
import { invalidDocuments, printVerdicts } from './verdicts.js';

/** A template in a change: its name, and its id and file where it has them. */
export interface PlannedTemplate {
  name: string;
  id?: string;
  file?: string;
}

export interface Creation extends PlannedTemplate {
  file: string;
  body: TemplateBody;
  /** What the file holds, normalised (what a diff shows). */
  text: string;
  /** A template in no file with this very content under another name: likely the old name. */
  renameOf?: Template;
}

export interface Replacement extends PlannedTemplate {
  id: string;
  file: string;
  body: TemplateBody;
  /** The service's template and the file, normalised the same way. */
  before: string;
  after: string;
}

export interface Deletion extends PlannedTemplate {
  id: string;
  text: string;
}

/** What it takes to make the service hold what the folder holds. */
export interface TemplatePlan {
  create: Creation[];
  replace: Replacement[];
  unchanged: (PlannedTemplate & { id: string; file: string })[];
  /** With --prune: the service's templates that are in no file. */
  delete: Deletion[];
  /** Without --prune: those templates, kept. */
  kept: Template[];
}

export interface PlanOptions extends GlobalOptions {
  prune?: boolean;
}

/**
 * Reads every file of `dir`, checks each against the catalogs (cached), reads the account's
 * templates and compares them by name. Unreadable files and duplicate names are usage errors
 * (exit 2); invalid files are reported as `templates validate` reports them (exit 1). Nothing
 * is written on the way.
 */
export async function planFromFolder(dir: string, options: PlanOptions, deps: CliDeps): Promise<{ session: Session; plan: TemplatePlan }> {
  const files = await readTemplateFiles(dir);
  if (files.length === 0) throw new UsageError(`no template files (*.json) in ${dir}`, `\`reportctl templates pull ${dir}\` writes the account's templates there`);
  filesByName(files);
  const session = await deps.api(options);
  session.progress.update('reading the catalogs');
  const catalogs = await cachedCatalogs(session, deps);
  session.progress.stop();
  const checked = files.map(({ file, body }) => ({ label: file, body, validation: validateTemplateBody(body, catalogs) }));
  const invalid = checked.filter((document) => !document.validation.success);
  if (invalid.length > 0) {
    await printVerdicts(invalid, catalogs, deps, { json: options.json, named: true });
    throw invalidDocuments(invalid.length, files.length);
  }
  const templates = await serviceTemplatesByName(session, deps);
  const valid = checked.map(({ label, validation }) => ({ file: label, body: (validation as { template: TemplateBody }).template }));
  return { session, plan: planChanges(valid, templates, options.prune === true) };
}

/** The changes from what the service holds to what the files hold, each list by file (deletions by name). */
export function planChanges(files: readonly { file: string; body: TemplateBody }[], templates: ReadonlyMap<string, Template>, prune: boolean): TemplatePlan {
  const plan: TemplatePlan = { create: [], replace: [], unchanged: [], delete: [], kept: [] };
  const named = new Set<string>();
  for (const { file, body } of files) {
    named.add(body.name);
    const after = templateFileText(body);
    const current = templates.get(body.name);
    if (!current) {
      plan.create.push({ name: body.name, file, body, text: after });
      continue;
    }
    const before = templateFileText(current);
    if (before === after) plan.unchanged.push({ name: body.name, id: current.id, file });
    else plan.replace.push({ name: body.name, id: current.id, file, body, before, after });
  }
  const orphans = [...templates.values()].filter((template) => !named.has(template.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (prune) plan.delete = orphans.map((template) => ({ name: template.name, id: template.id, text: templateFileText(template) }));
  else plan.kept = orphans;
  // A rename is a create and a delete; say which old template a new one seems to continue.
  const withoutName = (text: string) => text.replace(/^ {2}"name": .*\n/m, '');
  for (const creation of plan.create) {
    const content = withoutName(creation.text);
    const old = orphans.find((template) => withoutName(templateFileText(template)) === content);
    if (old) creation.renameOf = old;
  }
  return plan;
}

/** `2 to create, 1 to replace, 0 to delete, 5 unchanged` */
export function planSummary(plan: TemplatePlan): string {
  return `${plan.create.length} to create, ${plan.replace.length} to replace, ${plan.delete.length} to delete, ${plan.unchanged.length} unchanged`;
}

/** One line per change, for people: what, which template, its id and its file. */
export function planLines(plan: TemplatePlan, prune: boolean): string[] {
  const lines: string[] = [];
  for (const change of plan.delete) lines.push(`delete   ${quoted(change.name)} ${change.id} (in no file)`);
  for (const change of plan.replace) lines.push(`replace  ${quoted(change.name)} ${change.id} from ${change.file}`);
  for (const change of plan.create) {
    const renamed = change.renameOf;
    const note = !renamed ? '' : prune ? ` (a rename of ${quoted(renamed.name)}, deleted above)` : ` (a rename of ${quoted(renamed.name)}? it is kept: --prune deletes it)`;
    lines.push(`create   ${quoted(change.name)} from ${change.file}${note}`);
  }
  return lines;
}
