import { checkTemplateDocument, type Template, type TemplateBody } from '../../../../contract/index.js';
import { cachedCatalogs } from '../../../session/catalog-cache.js';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { UsageError } from '../../../cmdutil/errors.js';
import { parseJson } from '../../../cmdutil/input.js';
import { writeLine } from '../../../iostreams/io.js';
import type { Session } from '../../../session/session.js';
import { filesByName, quoted, readFolder, serviceTemplatesByName, shown, templateFileText } from './folder.js';
import { invalidDocuments, printVerdicts, verdictJson, type CheckedDocument, type VerdictJson } from './verdicts.js';

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
  unchanged: (PlannedTemplate & { id: string; file: string; text: string })[];
  /** With --prune: the service's templates that are in no file. */
  delete: Deletion[];
  /** Without --prune: those templates, kept. */
  kept: Template[];
}

export type PlannedChange =
  | (Replacement & { action: 'replace' })
  | (Creation & { action: 'create' })
  | (Deletion & { action: 'delete' });

/** Changes in file order, then the deletions: the order a reader walks the folder in. */
export function changesInReadingOrder(plan: TemplatePlan): PlannedChange[] {
  const byFile: PlannedChange[] = [
    ...plan.replace.map((change) => ({ ...change, action: 'replace' as const })),
    ...plan.create.map((change) => ({ ...change, action: 'create' as const })),
  ].sort((a, b) => (a.file! < b.file! ? -1 : 1));
  return [...byFile, ...plan.delete.map((change) => ({ ...change, action: 'delete' as const }))];
}

export interface PlanOptions extends GlobalOptions {
  prune?: boolean;
}

/** How a verb takes a folder with invalid files, and what it checks of the service before reading it. */
export interface PlanRules {
  /** With --json: what stdout gets for the invalid files (nothing when absent). */
  invalidAnswer?: (invalid: VerdictJson[]) => unknown;
  /** apply --plan: the plan's service must be the session's (checked before any request). */
  checkService?: (session: Session) => void;
  /** apply --plan: the plan's account must be the session's (checked once the service answered). */
  checkAccount?: (session: Session) => void;
}

/** A plan, the session it was read with, the folder's files by name (their text) and the account's templates by name. */
export interface FolderPlan {
  session: Session;
  plan: TemplatePlan;
  files: Map<string, string>;
  templates: ReadonlyMap<string, Template>;
}

/**
 * Reads every file of `dir`, checks each against the catalogs (cached), reads the account's
 * templates and compares them by name. An entry that is not a readable file and duplicate
 * names are usage errors (exit 2). Files that are not JSON or not valid templates are all
 * reported in one run, as `templates validate` reports them, and the run stops with exit 1.
 * Nothing is written on the way.
 */
export async function planFromFolder(dir: string, options: PlanOptions, deps: CliDeps, rules: PlanRules = {}): Promise<FolderPlan> {
  const entries = await readFolder(dir);
  if (entries.length === 0) throw new UsageError(`no template files (*.json) in ${shown(dir)}`, `\`reportctl templates pull ${shown(dir)}\` writes the account's templates there`);
  const files = await Promise.all(entries.map(async ({ file, text }) => ({ file, parsed: await parseJson(text) })));
  filesByName(files.map(({ file, parsed }) => ({ file, body: parsed.success ? parsed.value : undefined })));
  const session = await deps.api(options);
  rules.checkService?.(session);
  deps.io.progress.update('reading the catalogs');
  const catalogs = await cachedCatalogs(session, deps);
  deps.io.progress.stop();
  // After a first answer: a refused key is a refused key (3), not "another key" (2).
  rules.checkAccount?.(session);
  const checked: CheckedDocument[] = files.map(({ file, parsed }) =>
    parsed.success ? { label: file, body: parsed.value, validation: checkTemplateDocument(parsed.value, catalogs) } : { label: file, reason: parsed.reason },
  );
  const invalid = checked.filter((document) => !('validation' in document) || !document.validation.success);
  if (invalid.length > 0) {
    // With --json, stdout keeps its one documented answer; the verdicts are for people.
    if (options.json) {
      await printVerdicts(invalid, catalogs, deps, { named: true, stream: deps.io.stderr });
      if (rules.invalidAnswer) writeLine(deps.io.stdout, JSON.stringify(rules.invalidAnswer(invalid.map(verdictJson))));
    } else {
      await printVerdicts(invalid, catalogs, deps, { named: true });
    }
    throw invalidDocuments(invalid.length, files.length);
  }
  const templates = await serviceTemplatesByName(session, deps);
  const valid = checked.flatMap((document) => ('validation' in document && document.validation.success ? [{ file: document.label, body: document.validation.template }] : []));
  return { session, plan: planChanges(valid, templates, options.prune === true), files: new Map(entries.map(({ name, text }) => [name, text])), templates };
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
    if (before === after) plan.unchanged.push({ name: body.name, id: current.id, file, text: after });
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
  for (const change of plan.replace) lines.push(`replace  ${quoted(change.name)} ${change.id} from ${shown(change.file)}`);
  for (const change of plan.create) {
    const renamed = change.renameOf;
    const note = !renamed ? '' : prune ? ` (a rename of ${quoted(renamed.name)}, deleted above)` : ` (a rename of ${quoted(renamed.name)}? it is kept: --prune deletes it)`;
    lines.push(`create   ${quoted(change.name)} from ${shown(change.file)}${note}`);
  }
  return lines;
}
