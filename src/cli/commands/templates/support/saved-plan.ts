import { createHash } from 'node:crypto';
import { posix, sep } from 'node:path';
import { z } from 'zod';
import { CliError, ExitCode, NOT_UTF8_HINT, UsageError } from '../../../cmdutil/errors.js';
import { decodeUtf8, NotUtf8Error } from '../../../../encoding/utf8.js';
import { parseJson } from '../../../cmdutil/input.js';
import { escapeControls, SERVICE_ID } from '../../../iostreams/sanitize.js';
import { stableJson } from '../../../output/stable-json.js';
import type { Template } from '../../../../contract/index.js';
import { quoted, shown, templateFileText } from './folder.js';

/** The version of the plan file's format; a reader refuses any other. */
export const PLAN_VERSION = 2;

/**
 * A plan keeps the texts of the templates it changes (so `show-plan` can show it again, from the
 * file alone) up to this many bytes in all; past it the largest are left out and said to be.
 */
export const MAX_PLAN_TEXT_BYTES = 16 * 1024 * 1024;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const serviceId = z.string().regex(SERVICE_ID);
/** A file of the folder, by its name there: never a path that leads elsewhere. */
const fileName = z.string().regex(/^[^/\\]+\.json$/).refine((name) => !name.startsWith('.'), 'a file of the folder');
const change = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('create'), name: z.string(), file: fileName, fileSha256: sha256, afterSha256: sha256, renameOf: z.strictObject({ name: z.string(), id: serviceId }).optional() }),
  z.strictObject({ action: z.literal('replace'), name: z.string(), id: serviceId, file: fileName, fileSha256: sha256, serviceSha256: sha256, afterSha256: sha256 }),
  z.strictObject({ action: z.literal('delete'), name: z.string(), id: serviceId, serviceSha256: sha256 }),
]);

/**
 * What `templates diff --out` saves and `apply --plan` carries out (README, "Templates in
 * git"): the changes people reviewed, each with what it starts from and ends at, and the
 * service, account and folder they are for.
 */
const savedPlanSchema = z.strictObject({
  planVersion: z.literal(PLAN_VERSION),
  /** The service's base URL. */
  baseUrl: z.string(),
  /** The account, known to a client only by its key: a fingerprint of the key (`accountOf`). */
  account: sha256,
  /** The folder, relative to the plan file's own folder, with `/` between its parts. */
  dir: z.string().min(1),
  prune: z.boolean(),
  /** In the order apply makes them: deletions, replacements, creations. */
  changes: z.array(change),
  /** The templates a file holds as the service does. */
  unchanged: z.array(z.strictObject({ name: z.string(), id: serviceId, file: fileName, sha256 })),
  /** Every `*.json` file of the folder, by name: the sha256 of its bytes. */
  files: z.record(fileName, sha256),
  /** Each text a change starts from or ends at (as `pull` would write it), by its sha256. */
  texts: z.record(sha256, z.string()),
});
export type SavedPlan = z.infer<typeof savedPlanSchema>;
export type SavedChange = SavedPlan['changes'][number];

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The fingerprint a plan knows its account by: the API names no account, so the key stands for it. */
export const accountOf = (apiKey: string | undefined) => sha256Of(`reportctl plan account\n${apiKey ?? ''}`);

/** A folder as a plan records it: relative to the plan file's folder, `/` between its parts. */
export const recordedDir = (relativePath: string) => relativePath.split(sep).join(posix.sep) || '.';

/** A plan as the plan module works it out: each change with its texts, normalised. */
export interface PlannedChanges {
  create: readonly { name: string; file: string; text: string; renameOf?: { name: string; id: string } }[];
  replace: readonly { name: string; id: string; file: string; before: string; after: string }[];
  delete: readonly { name: string; id: string; text: string }[];
  unchanged: readonly { name: string; id: string; file: string; text: string }[];
}

/** Where a plan is for, and what it was worked out from. */
export interface PlanContext {
  baseUrl: string;
  account: string;
  /** As `recordedDir` gives it. */
  dir: string;
  prune: boolean;
  /** Each file of the folder, by its name there: its text. */
  files: ReadonlyMap<string, string>;
}

const nameOf = (file: string) => file.split(/[/\\]/).at(-1)!;

/** The changes of a plan as a saved plan lists them (files by name), in the order apply makes them. */
export function savedChangesOf(plan: PlannedChanges, files: ReadonlyMap<string, string>): SavedChange[] {
  const fileSha = (file: string) => sha256Of(files.get(nameOf(file)) ?? '');
  return [
    ...plan.delete.map((entry): SavedChange => ({ action: 'delete', name: entry.name, id: entry.id, serviceSha256: sha256Of(entry.text) })),
    ...plan.replace.map((entry): SavedChange => ({ action: 'replace', name: entry.name, id: entry.id, file: nameOf(entry.file), fileSha256: fileSha(entry.file), serviceSha256: sha256Of(entry.before), afterSha256: sha256Of(entry.after) })),
    ...plan.create.map((entry): SavedChange => ({
      action: 'create',
      name: entry.name,
      file: nameOf(entry.file),
      fileSha256: fileSha(entry.file),
      afterSha256: sha256Of(entry.text),
      ...(entry.renameOf ? { renameOf: { name: entry.renameOf.name, id: entry.renameOf.id } } : {}),
    })),
  ];
}

/** The texts a plan keeps, smallest first, within MAX_PLAN_TEXT_BYTES. */
function keptTexts(plan: PlannedChanges, limit: number): Record<string, string> {
  const texts = [...plan.delete.map((entry) => entry.text), ...plan.replace.flatMap((entry) => [entry.before, entry.after]), ...plan.create.map((entry) => entry.text)];
  const unique = [...new Set(texts)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const kept: Record<string, string> = {};
  let total = 0;
  for (const text of unique) {
    total += Buffer.byteLength(text, 'utf8');
    if (total > limit) break;
    kept[sha256Of(text)] = text;
  }
  return kept;
}

/** The record of `plan`: the same folder, files and service give the same bytes. */
export function savedPlanOf(plan: PlannedChanges, context: PlanContext, textLimit = MAX_PLAN_TEXT_BYTES): SavedPlan {
  return {
    planVersion: PLAN_VERSION,
    baseUrl: context.baseUrl,
    account: context.account,
    dir: context.dir,
    prune: context.prune,
    changes: savedChangesOf(plan, context.files),
    unchanged: plan.unchanged.map((entry) => ({ name: entry.name, id: entry.id, file: nameOf(entry.file), sha256: sha256Of(entry.text) })),
    files: Object.fromEntries([...context.files].map(([name, text]) => [name, sha256Of(text)])),
    texts: keptTexts(plan, textLimit),
  };
}

/** A saved plan's text: sorted keys and a final newline, so a rerun on the same state writes the same bytes. */
export function planFileText(plan: SavedPlan): string {
  return `${stableJson(plan)}\n`;
}

/**
 * Saves a plan: 0600 in a folder made 0700 when missing, whatever the umask, as the config
 * file is: a plan says what apply does, so no other user may change it.
 */
export async function writePlanFile(file: string, plan: SavedPlan): Promise<void> {
  const [{ mkdir }, { dirname }, { writeFileAtomically }] = await Promise.all([import('node:fs/promises'), import('node:path'), import('../../../output/output-file.js')]);
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    // A file where a folder of the path should be: mkdir says it exists.
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`--out: cannot make the folder of ${shown(file)}: ${code === 'EEXIST' ? 'ENOTDIR' : (code ?? String(error))}`, ExitCode.failed);
  }
  await writeFileAtomically(file, planFileText(plan), '--out', 0o600);
}

/** A plan is read to this size at most: a hostile file cannot fill the memory. */
export const MAX_PLAN_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A plan file's text, read as strict UTF-8 from one regular file opened without blocking (a
 * FIFO cannot hold the run). A plan other users can change, or whose folder they can write
 * to (unless it is sticky, as /tmp is), is refused unless `othersMayWrite` (only shown): it
 * would let them choose what apply does.
 */
export async function readPlanFile(file: string, flag: string, options: { othersMayWrite?: boolean } = {}): Promise<string> {
  const [{ constants }, { open, stat }, { dirname }, { unreadableReason }] = await Promise.all([import('node:fs'), import('node:fs/promises'), import('node:path'), import('../../../cmdutil/input.js')]);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${shown(file)}: ${unreadableReason(error)}`);
  }
  try {
    const status = await handle.stat();
    if (!status.isFile()) throw new UsageError(`${flag}: ${shown(file)} is not a regular file`);
    if (status.size > MAX_PLAN_FILE_BYTES) throw new UsageError(`${flag}: ${shown(file)} is ${status.size} bytes; a plan is ${MAX_PLAN_FILE_BYTES} at most`);
    const folder = await stat(dirname(file));
    const othersWrite = (mode: number) => (mode & 0o002) !== 0;
    if (!options.othersMayWrite && (othersWrite(status.mode) || (othersWrite(folder.mode) && (folder.mode & 0o1000) === 0))) {
      const what = othersWrite(status.mode) ? `${shown(file)} (mode ${(status.mode & 0o777).toString(8)})` : `its folder (mode ${(folder.mode & 0o777).toString(8)})`;
      throw new UsageError(`${flag}: other users can change ${what}, and so what apply does; refusing it`, `if you trust it: \`chmod o-w\` it (\`templates diff --out\` writes plans 0600)`);
    }
    const bytes = await handle.readFile();
    try {
      return decodeUtf8(bytes);
    } catch (error) {
      if (!(error instanceof NotUtf8Error)) throw error;
      throw new UsageError(`${flag}: ${shown(file)} is ${error.message}`, NOT_UTF8_HINT);
    }
  } finally {
    await handle.close();
  }
}

/** A plan file's text as a plan; anything else is a usage error (exit 2). */
export async function parseSavedPlan(text: string, file: string): Promise<SavedPlan> {
  const parsed = await parseJson(text);
  if (!parsed.success) throw new UsageError(`${file} is ${parsed.reason}`);
  const version = (parsed.value as { planVersion?: unknown } | null)?.planVersion;
  if (version !== undefined && version !== PLAN_VERSION) {
    throw new UsageError(`${file} is a plan of version ${escapeControls(String(version))}; this reportctl reads version ${PLAN_VERSION}`, 'make the plan again with this reportctl: `reportctl templates diff DIR --out PLAN`');
  }
  const plan = savedPlanSchema.safeParse(parsed.value);
  if (!plan.success) {
    const where = plan.error.issues[0]!;
    throw new UsageError(`${file} is not a plan of \`templates diff --out\`: ${escapeControls(where.path.join('.')) || '(top)'}: ${where.message}`);
  }
  // What show-plan prints must be what apply checks: each text is the one its hash names.
  const forged = Object.entries(plan.data.texts).find(([hash, text]) => sha256Of(text) !== hash);
  if (forged) throw new UsageError(`${file} is damaged: the text kept as ${forged[0].slice(0, 12)}… does not have that sha256`);
  return plan.data;
}

/** The fields that make two changes the same change: what it is, to which template, from what, to what. */
const identity = (entry: SavedChange) => JSON.stringify([entry.action, entry.name, 'id' in entry ? entry.id : null, 'serviceSha256' in entry ? entry.serviceSha256 : null, 'afterSha256' in entry ? entry.afterSha256 : null]);

/** How a saved plan's changes stand now. */
export interface PlanStanding {
  /** Changes made now that the plan does not hold, each with what moved since the plan. */
  unreviewed: string[];
  /** The plan's changes whose result the service holds already. */
  done: number;
  /** The plan's changes the folder no longer makes, each with why. */
  dropped: string[];
}

/**
 * How the changes the folder and the service make now compare with a saved plan's. Every change
 * made now must be one of the plan's (the same template, from the same state to the same
 * result): that is what people reviewed. Of the plan's other changes, some are done (the
 * service holds their result: an earlier apply, or another way) and the rest dropped (the
 * folder no longer makes them).
 */
export function compareWithSaved(saved: SavedPlan, now: readonly SavedChange[], files: ReadonlyMap<string, string>, templates: ReadonlyMap<string, Template>): PlanStanding {
  const reviewed = new Set(saved.changes.map(identity));
  const made = new Set(now.map(identity));
  const unreviewed = now.filter((entry) => !reviewed.has(identity(entry))).map((entry) => whyUnreviewed(saved, entry, files));
  const byId = new Map([...templates.values()].map((template) => [template.id, sha256Of(templateFileText(template))]));
  const named = (name: string) => templates.get(name) && byId.get(templates.get(name)!.id);
  const holds = (entry: SavedChange) => (entry.action === 'delete' ? !byId.has(entry.id) : entry.action === 'replace' ? byId.get(entry.id) === entry.afterSha256 : named(entry.name) === entry.afterSha256);
  const rest = saved.changes.filter((entry) => !made.has(identity(entry)));
  const dropped = rest.filter((entry) => !holds(entry)).map((entry) => `${entry.action} ${quoted(entry.name)}: ${whyDropped(saved, entry, files)}`);
  return { unreviewed, done: rest.length - dropped.length, dropped };
}

/** Why the folder no longer makes a change of the plan that the service does not hold. */
function whyDropped(saved: SavedPlan, entry: SavedChange, files: ReadonlyMap<string, string>): string {
  if (entry.action === 'delete') return `a file holds ${quoted(entry.name)} since the plan`;
  const file = shown(posix.join(saved.dir, entry.file));
  return files.has(entry.file) ? `${file} changed since the plan` : `${file} is gone since the plan`;
}

/** The templates a plan rests on, by id: their name and the sha256 of their text then. */
function templatesOf(saved: SavedPlan): Map<string, { name: string; sha256: string }> {
  const known = new Map(saved.unchanged.map((entry) => [entry.id, { name: entry.name, sha256: entry.sha256 }]));
  for (const entry of saved.changes) if (entry.action !== 'create') known.set(entry.id, { name: entry.name, sha256: entry.serviceSha256 });
  return known;
}

/** What moved since the plan so that the folder and the service now make `entry`, which it does not hold. */
function whyUnreviewed(saved: SavedPlan, entry: SavedChange, files: ReadonlyMap<string, string>): string {
  const what = `(${entry.action} ${quoted(entry.name)})`;
  const known = templatesOf(saved);
  if (entry.action !== 'create') {
    const was = known.get(entry.id);
    const template = `template ${quoted(entry.name)} ${escapeControls(entry.id)}`;
    if (was === undefined) {
      const created = saved.changes.some((candidate) => candidate.action === 'create' && candidate.name === entry.name);
      // With --prune a plan knows every template; a deletion is only planned with it.
      if (created || saved.prune || entry.action === 'delete') return `${template} was added on the service since the plan${created ? ' (the plan creates that name)' : ''}`;
    } else if (was.sha256 !== entry.serviceSha256) {
      return `${template} was replaced on the service since the plan${was.name === entry.name ? '' : ` (it was ${quoted(was.name)})`}`;
    }
    if (entry.action === 'delete') return `no file holds ${quoted(entry.name)} since the plan ${what}`;
  } else {
    const gone = [...known].find(([, template]) => template.name === entry.name);
    if (gone) return `template ${quoted(entry.name)} ${escapeControls(gone[0])} was deleted on the service since the plan ${what}`;
  }
  const file = shown(posix.join(saved.dir, entry.file));
  const before = saved.files[entry.file];
  if (before === undefined) return `${file} is new since the plan ${what}`;
  if (before === sha256Of(files.get(entry.file) ?? '')) return `${file} makes another template than at the plan: the catalogs changed ${what}`;
  return `${file} changed since the plan ${what}`;
}

/** The refusal of a plan that no longer holds: nothing is written, each change named. */
export function stalePlan(file: string, changed: readonly string[]): CliError {
  return new CliError(
    `${shown(file)} is stale: the folder and the service now make ${changed.length === 1 ? 'a change' : `${changed.length} changes`} it does not hold; nothing was written`,
    ExitCode.stalePlan,
    'review the changes again: `reportctl templates diff DIR --out PLAN`',
    { code: 'STALE_PLAN', issues: changed.map((message) => ({ path: file, message })) },
  );
}
