import type { Template } from '../../../contract/index.js';
import type { Writable } from 'node:stream';
import type { CliDeps } from '../../cmdutil/context.js';
import { UsageError } from '../../cmdutil/errors.js';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { escapeControls } from '../../iostreams/sanitize.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { Session } from '../../session/session.js';
import type { FolderPlan, TemplatePlan } from './support/plan.js';
import type { SavedPlan } from './support/saved-plan.js';
import { submitTemplate } from './support/submit.js';

const verb = (parent: Parent) =>
  parent
    .command('apply')
    .description('Make the service hold what a folder of template files holds: create, replace and (with --prune) delete')
    .argument('[dir]', 'the folder of template files (*.json); with --plan, the plan names it (relative to the plan file)')
    .option('--prune', "delete the service's templates that are in no file (asks first on a terminal)")
    .option('--plan <file>', 'carry out only changes the plan `templates diff --out` saved holds; any other is refused (exit 12)')
    .option('--dry-run', 'print the plan and stop')
    .option('-y, --yes', 'delete without asking (required for --prune deletions when not on a terminal)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates apply templates/ --dry-run
  $ reportctl templates apply templates/
  $ reportctl templates apply templates/ --prune --yes --json   # { created, replaced, deleted, unchanged }
  $ reportctl templates apply --plan plan.json --yes             # what \`diff --out plan.json\` saved

Every file is read and checked first: each one that is not JSON or not a valid template is
reported (with --json, stdout gets { ..., invalid: [{ file, valid, issues, reason? }] }), nothing
is written, exit 1; a *.json entry that is not a readable file is exit 2. The plan (N to
create, N to replace, N to delete, N unchanged) comes next, then each change as it is made,
with its template's id: deletions first (they free room under the plan's template limit),
then replacements, then creations, paced under the service's write limit. A template is known
by its exact name, so a rename is a delete and a create. A write that fails stops the run:
what was done and what was not is listed, the exit code is that failure's, and running the
same apply again carries out the rest.

With --plan: the plan's folder is found relative to the plan file and must be inside the
working folder, or be the DIR given; the plan must be for this base URL and key (exit 2
otherwise). Each change the folder and the service make now must be one the plan holds: the
same template, from the same state, to the same result (reviewed). One that is not (a
template edited on the service since, a file changed) is named and nothing is written: exit
12, error STALE_PLAN. The plan's changes the service already holds are said and skipped (a
plan applied twice, or after a write that failed); those the folder no longer makes are said.`,
    );
export type TemplatesApplyOptions = OptionsOf<typeof verb>;

export function registerTemplatesApply(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesApplyOptions, [dir: string | undefined]> = (options, dir) => runTemplatesApply(dir, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

type Action = 'delete' | 'replace' | 'create';
interface Change {
  action: Action;
  name: string;
  id?: string;
  file?: string;
  run(session: Session): Promise<Template | undefined>;
}
/** A template in the --json answer: deleted ones are in no file. */
interface Applied {
  name: string;
  id: string;
  file: string | null;
}

export async function runTemplatesApply(given: string | undefined, options: TemplatesApplyOptions, deps: CliDeps): Promise<void> {
  const [{ planFromFolder, planLines, planSummary }, { quoted }] = await Promise.all([import('./support/plan.js'), import('./support/folder.js')]);
  const saved = options.plan === undefined ? undefined : await readSavedPlan(options.plan, given, options.prune);
  const dir = saved?.dir ?? given;
  if (dir === undefined) throw new UsageError("missing required argument 'dir'", 'name the folder, or pass --plan PLAN.json (`templates diff DIR --out PLAN.json` saves one)');
  const { session, plan, files, templates } = await planFromFolder(dir, { ...options, prune: saved?.plan.prune ?? options.prune }, deps, {
    invalidAnswer: (invalid) => ({ ...resultJson({ create: [], replace: [], delete: [] }, []), invalid }),
    ...(saved ? { checkService: (session: Session) => checkPlanService(saved, session), checkAccount: (session: Session) => checkPlanAccount(saved, session) } : {}),
  });
  if (saved) await holdToSavedPlan(saved, { plan, files, templates }, deps);
  // With --json, stdout carries the one JSON answer; what people read goes to stderr.
  const people = options.json ? deps.io.stderr : deps.io.stdout;
  const unchanged: Applied[] = plan.unchanged.map(({ name, id, file }) => ({ name, id, file }));
  if (options.dryRun && options.json) {
    writeLine(deps.io.stdout, JSON.stringify(dryRunJson(plan)));
  } else {
    writeLine(people, `Plan: ${planSummary(plan)}.`);
    for (const line of planLines(plan, saved?.plan.prune ?? options.prune === true)) writeLine(people, `  ${line}`);
  }
  if (plan.kept.length > 0) {
    const kept = plan.kept.length === 1 ? '1 template of the account is in no file and kept (--prune deletes it)' : `${plan.kept.length} templates of the account are in no file and kept (--prune deletes them)`;
    writeLine(deps.io.stderr, kept);
  }
  if (options.dryRun) {
    // The plan's lines are those a real apply starts with: say plainly that this one stops.
    writeLine(deps.io.stderr, 'dry run: nothing was changed on the service');
    return;
  }
  if (plan.delete.length > 0 && !options.yes) {
    const what = `${plan.delete.length === 1 ? 'template' : `${plan.delete.length} templates`} in no file (${plan.delete.map((change) => quoted(change.name)).join(', ')})`;
    if (!deps.io.canPrompt(options.input === false)) {
      throw new UsageError(`refusing to delete ${what} without confirmation; nothing was applied`, 'pass --yes to delete without a prompt');
    }
    const sure = await deps.prompter.confirm({ message: `Delete ${what}? This cannot be undone.`, default: false });
    if (!sure) {
      writeLine(deps.io.stderr, 'nothing applied');
      return;
    }
  }

  const done = await carryOut(changesOf(plan), session, unchanged, options.json === true, people, deps);
  if (options.json) writeLine(deps.io.stdout, JSON.stringify(resultJson(done, unchanged)));
  writeLine(deps.io.stderr, `applied: ${doneSummary(done)}, ${unchanged.length} unchanged`);
}

/** The plan as changes in the order they are made: deletions, replacements, then creations. */
function changesOf(plan: TemplatePlan): Change[] {
  return [
    ...plan.delete.map((change): Change => ({ action: 'delete', name: change.name, id: change.id, run: async ({ api }) => void (await api.templates.delete(change.id)) })),
    ...plan.replace.map((change): Change => ({
      action: 'replace',
      name: change.name,
      id: change.id,
      file: change.file,
      run: ({ api }) => submitTemplate(api, change.body, (body) => api.templates.replace(change.id, body), change.file),
    })),
    ...plan.create.map((change): Change => ({
      action: 'create',
      name: change.name,
      file: change.file,
      run: ({ api }) => submitTemplate(api, change.body, (body) => api.templates.create(body), change.file),
    })),
  ];
}

/** Makes the changes one by one; on the first failure says what was done and what was not, then rethrows. */
async function carryOut(changes: Change[], session: Session, unchanged: Applied[], json: boolean, people: Writable, deps: CliDeps): Promise<Record<Action, Applied[]>> {
  const { quoted, shown } = await import('./support/folder.js');
  const done: Record<Action, Applied[]> = { delete: [], replace: [], create: [] };
  const past: Record<Action, string> = { delete: 'deleted', replace: 'replaced', create: 'created' };
  let at = 0;
  try {
    for (; at < changes.length; at++) {
      const change = changes[at]!;
      deps.io.progress.update(`${change.action} ${at + 1} of ${changes.length}: ${quoted(change.name)}`);
      const result = await change.run(session);
      deps.io.progress.stop();
      const id = result?.id ?? change.id!;
      done[change.action].push({ name: change.name, id, file: change.file ?? null });
      writeLine(people, `${past[change.action].padEnd(9)} ${quoted(change.name)} ${id}${change.file ? ` from ${shown(change.file)}` : ''}`);
    }
  } catch (error) {
    deps.io.progress.stop();
    const rest = changes.slice(at);
    if (json) writeLine(deps.io.stdout, JSON.stringify({ ...resultJson(done, unchanged), notDone: rest.map(({ action, name, id, file }) => ({ action, name, id: id ?? null, file: file ?? null })) }));
    writeLine(deps.io.stderr, `apply stopped at ${rest[0]!.action} ${quoted(rest[0]!.name)}: ${at} of ${changes.length} changes made (${doneSummary(done)})`);
    for (const change of rest) writeLine(deps.io.stderr, `  not done: ${change.action} ${quoted(change.name)}${change.id ? ` ${change.id}` : ''}${change.file ? ` from ${shown(change.file)}` : ''}`);
    writeLine(deps.io.stderr, 'run the same apply again to carry out the rest');
    throw error;
  }
  return done;
}

interface SavedPlanFile {
  file: string;
  plan: SavedPlan;
  /** The plan's folder, found relative to the plan file, as this run names it. */
  dir: string;
  /** How the plan knows its account (loaded with the plan's module). */
  accountOf: (apiKey: string | undefined) => string;
}

/**
 * The plan file `--plan` names. Its folder is found relative to the plan file, and must be
 * inside the working folder unless DIR names that very folder; another folder or --prune than
 * the plan's is a usage error.
 */
async function readSavedPlan(file: string, given: string | undefined, prune: boolean | undefined): Promise<SavedPlanFile> {
  const [{ accountOf, parseSavedPlan, readPlanFile }, { shown }] = await Promise.all([import('./support/saved-plan.js'), import('./support/folder.js')]);
  const plan = await parseSavedPlan(await readPlanFile(file, '--plan'), `--plan: ${shown(file)}`);
  if (isAbsolute(plan.dir)) throw new UsageError(`${shown(file)} names its folder as ${shown(plan.dir)}: a plan's folder is relative to the plan file`, 'make the plan again: `reportctl templates diff DIR --out PLAN`');
  const folder = resolve(dirname(file), plan.dir);
  const here = relative(resolve('.'), folder) || '.';
  if (given !== undefined && resolve(given) !== folder) throw new UsageError(`${shown(file)} is a plan for ${shown(here)}, not ${shown(given)}`, 'leave DIR out: the plan names its folder, relative to the plan file');
  if (given === undefined && (here === '..' || here.startsWith(`..${sep}`) || isAbsolute(here))) {
    throw new UsageError(`${shown(file)} is a plan for ${shown(folder)}, outside the working folder`, 'name that folder as DIR if you mean it: `reportctl templates apply DIR --plan PLAN`');
  }
  if (prune !== undefined && prune !== plan.prune) throw new UsageError(`${shown(file)} is a plan made ${plan.prune ? 'with' : 'without'} --prune`, 'leave --prune out: the plan says whether it deletes');
  return { file, plan, dir: given ?? here, accountOf };
}

/** A plan applies to the service it was made for. */
function checkPlanService(saved: SavedPlanFile, session: Session): void {
  const { baseUrl } = session.settings;
  if (saved.plan.baseUrl === baseUrl) return;
  throw new UsageError(`${escapeControls(saved.file)} is a plan for ${escapeControls(saved.plan.baseUrl)}, not ${escapeControls(baseUrl)}`, 'apply it to the service it was made for, or make a plan for this one: `reportctl templates diff DIR --out PLAN`');
}

/** And to the account it was made for, which the API lets a client know only by its key. */
function checkPlanAccount(saved: SavedPlanFile, session: Session): void {
  if (saved.plan.account === saved.accountOf(session.settings.apiKey)) return;
  throw new UsageError(`${escapeControls(saved.file)} was made with another key, so maybe for another account`, 'apply it with the key it was made with, or make a plan with this one: `reportctl templates diff DIR --out PLAN`');
}

/**
 * What the folder and the service make now must be changes the plan holds (reviewed): else
 * the plan is stale and nothing is written. The plan's changes already made, or no longer
 * made by the folder, are said.
 */
async function holdToSavedPlan(saved: SavedPlanFile, now: Pick<FolderPlan, 'plan' | 'files' | 'templates'>, deps: CliDeps): Promise<void> {
  const { compareWithSaved, savedChangesOf, stalePlan } = await import('./support/saved-plan.js');
  const { unreviewed, done, dropped } = compareWithSaved(saved.plan, savedChangesOf(now.plan, now.files), now.files, now.templates);
  if (unreviewed.length > 0) throw stalePlan(saved.file, unreviewed);
  const [file, total] = [escapeControls(saved.file), saved.plan.changes.length];
  if (done === total && total > 0) writeLine(deps.io.stderr, `${file} was already applied: the service holds what it makes`);
  else if (done > 0) writeLine(deps.io.stderr, `${done} of the ${total} changes of ${file} ${done === 1 ? 'is' : 'are'} already made on the service`);
  for (const line of dropped) writeLine(deps.io.stderr, `not made any more: ${line}`);
}

function doneSummary(done: Record<Action, Applied[]>): string {
  return `${done.create.length} created, ${done.replace.length} replaced, ${done.delete.length} deleted`;
}

function resultJson(done: Record<Action, Applied[]>, unchanged: Applied[]) {
  return { created: done.create, replaced: done.replace, deleted: done.delete, unchanged };
}

function dryRunJson(plan: TemplatePlan) {
  return {
    create: plan.create.map(({ name, file }) => ({ name, id: null, file })),
    replace: plan.replace.map(({ name, id, file }) => ({ name, id, file })),
    delete: plan.delete.map(({ name, id }) => ({ name, id, file: null })),
    unchanged: plan.unchanged.map(({ name, id, file }) => ({ name, id, file })),
  };
}
