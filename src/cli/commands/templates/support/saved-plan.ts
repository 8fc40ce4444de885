import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Template } from '../../../../contract/index.js';
import { CliError, ExitCode, UsageError } from '../../../cmdutil/errors.js';
import { parseJson } from '../../../cmdutil/input.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import { quoted, shown, templateFileText } from './folder.js';
import { stableJson } from '../../../output/stable-json.js';

/** The version of the plan file's format; a reader refuses any other. */
export const PLAN_VERSION = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const change = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('create'), name: z.string(), file: z.string(), fileSha256: sha256 }),
  z.strictObject({ action: z.literal('replace'), name: z.string(), id: z.string(), file: z.string(), fileSha256: sha256, serviceSha256: sha256 }),
  z.strictObject({ action: z.literal('delete'), name: z.string(), id: z.string(), serviceSha256: sha256 }),
]);

/**
 * What `templates diff --out` saves and `apply --plan` carries out (README, "Templates in
 * git"): the changes, and what they were worked out from, so apply can tell that nothing moved.
 */
const savedPlanSchema = z.strictObject({
  planVersion: z.literal(PLAN_VERSION),
  /** The folder as it was given, relative to where diff ran. */
  dir: z.string(),
  prune: z.boolean(),
  changes: z.array(change),
  /** Every `*.json` file of the folder: its path as shown and the sha256 of its bytes. */
  files: z.record(z.string(), sha256),
  /**
   * The service's templates the plan depends on, by id: the ones a file names and, with
   * prune, every template of the account. sha256 of each as a file would hold it.
   */
  service: z.record(z.string(), z.strictObject({ name: z.string(), sha256 })),
});
export type SavedPlan = z.infer<typeof savedPlanSchema>;

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Each file's sha256, by its path as shown. */
export const fileHashesOf = (files: ReadonlyMap<string, string>): SavedPlan['files'] => Object.fromEntries([...files].map(([file, text]) => [file, sha256Of(text)]));

/** The changes of a plan, as the plan module works them out. */
interface PlannedChanges {
  create: readonly { name: string; file: string }[];
  replace: readonly { name: string; id: string; file: string }[];
  unchanged: readonly { name: string }[];
  delete: readonly { name: string; id: string }[];
}

/** The record of `plan`: the same folder, files and service give the same bytes. */
export function savedPlanOf(dir: string, prune: boolean, plan: PlannedChanges, files: ReadonlyMap<string, string>, templates: ReadonlyMap<string, Template>): SavedPlan {
  const fileHashes = fileHashesOf(files);
  const named = new Set([...plan.replace, ...plan.unchanged, ...plan.create].map((entry) => entry.name));
  const service = Object.fromEntries(
    [...templates.values()].filter((template) => prune || named.has(template.name)).map((template) => [template.id, { name: template.name, sha256: sha256Of(templateFileText(template)) }]),
  );
  const changes: SavedPlan['changes'] = [
    ...plan.delete.map((entry) => ({ action: 'delete' as const, name: entry.name, id: entry.id, serviceSha256: service[entry.id]!.sha256 })),
    ...plan.replace.map((entry) => ({ action: 'replace' as const, name: entry.name, id: entry.id, file: entry.file, fileSha256: fileHashes[entry.file]!, serviceSha256: service[entry.id]!.sha256 })),
    ...plan.create.map((entry) => ({ action: 'create' as const, name: entry.name, file: entry.file, fileSha256: fileHashes[entry.file]! })),
  ];
  return { planVersion: PLAN_VERSION, dir, prune, changes, files: fileHashes, service };
}

/** A saved plan's text: sorted keys and a final newline, so a rerun on the same state writes the same bytes. */
export function planFileText(plan: SavedPlan): string {
  return `${stableJson(plan)}\n`;
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
    throw new UsageError(`${file} is not a plan of \`templates diff --out\`: ${where.path.join('.') || '(top)'}: ${where.message}`);
  }
  return plan.data;
}

/** How the folder's files differ from the plan's, one line each; none when they match. */
export function filesChanged(saved: SavedPlan, now: SavedPlan['files']): string[] {
  const lines: string[] = [];
  for (const file of [...new Set([...Object.keys(saved.files), ...Object.keys(now)])].sort()) {
    const [before, after] = [saved.files[file], now[file]];
    if (before === after) continue;
    lines.push(`${shown(file)} ${before === undefined ? 'is new' : after === undefined ? 'is gone' : 'changed'} since the plan`);
  }
  return lines;
}

/** How the service's templates differ from the plan's, one line each; none when they match. */
export function serviceChanged(saved: SavedPlan, now: SavedPlan['service']): string[] {
  const lines: string[] = [];
  const created = new Set(saved.changes.filter((entry) => entry.action === 'create').map((entry) => entry.name));
  for (const id of [...new Set([...Object.keys(saved.service), ...Object.keys(now)])].sort()) {
    const [before, after] = [saved.service[id], now[id]];
    if (before?.sha256 === after?.sha256) continue;
    const template = `template ${quoted((after ?? before)!.name)} ${escapeControls(id)}`;
    if (!before) lines.push(`${template} was added on the service since the plan${created.has(after!.name) ? ' (the plan creates that name)' : ''}`);
    else if (!after) lines.push(`${template} was deleted on the service since the plan`);
    else lines.push(`${template} was replaced on the service since the plan${before.name === after.name ? '' : ` (it was ${quoted(before.name)})`}`);
  }
  return lines;
}

/** The refusal of a plan that no longer holds: nothing is written, each change named. */
export function stalePlan(file: string, changed: readonly string[]): CliError {
  return new CliError(`${shown(file)} is stale (${changed.length === 1 ? '1 change' : `${changed.length} changes`} since it was saved); nothing was written`, ExitCode.stalePlan, 'review the changes again: `reportctl templates diff DIR --out PLAN`', {
    code: 'STALE_PLAN',
    issues: changed.map((message) => ({ path: file, message })),
  });
}
