import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { escapeControls, SERVICE_ID } from '../../../iostreams/sanitize.js';
import type { KeptBytes } from './kept.js';
import { normaliseAnswer, PREFIX_FAMILY } from './normalise.js';
import type { PacedService } from './paced.js';
import type { Answer, Finding, KeyUse, ListedTemplate, OptionalKey, ScenarioContext, Step, StepOutcome } from './step.js';

const TEMPLATES = '/api/v2/templates';
/** Cleanup gets this long after the scenario, whatever stopped it. */
export const CLEANUP_MS = 30_000;

export function newContext(random: () => number, keys: ReadonlySet<OptionalKey>, before: readonly ListedTemplate[] = []): ScenarioContext {
  const run = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return { prefix: `${PREFIX_FAMILY}${run}-`, before, heldIds: new Set(), answers: new Map(), created: new Map(), keys };
}

/** The keys that created templates this run (each sweeps its account). */
const creatorsOf = (context: ScenarioContext): KeyUse[] => ['account', ...(context.keys.has('otherAccount') ? (['otherAccount'] as const) : [])];

/** The requests a run keeps back for its cleanup: a delete per template, and the sweep's pages. */
export const cleanupReserve = (context: ScenarioContext) => () => context.created.size + creatorsOf(context).length * 2 * (1 + Math.ceil(context.before.length / 100));

/** A create answered with an id that cannot be one it made: the run stops before it could delete another's. */
export class StrangeCreate extends CliError {
  constructor(step: string, id: unknown, why: string) {
    super(`the target answered ${step} with the id ${escapeControls(JSON.stringify(id) ?? String(id))}, ${why}; parity stopped so as to delete nothing it did not create`, ExitCode.failed, undefined, { code: 'UNEXPECTED_RESPONSE' });
    this.name = 'StrangeCreate';
  }
}

/** The id of what a create made, when it can be this run's own: else the run stops. */
function createdId(step: Step, answer: Answer, context: ScenarioContext): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !SERVICE_ID.test(id)) throw new StrangeCreate(step.name, id, 'which is not shaped as the service\'s ids (1 to 128 letters, digits, _ and -)');
  if (context.heldIds.has(id)) throw new StrangeCreate(step.name, id, 'the id of a template the account held before the run');
  if ([...context.created.values()].some((created) => created.id === id)) throw new StrangeCreate(step.name, id, 'the id of a template this run created before');
  return id;
}

/** What runScenario reports besides the outcomes. */
export interface ScenarioSide {
  kept: KeptBytes;
  findings: Finding[];
  side: Finding['side'];
}

/** Steps whose raw answers later steps are built from: the only raw answers kept. */
const neededBy = (steps: readonly Step[]) => new Set(steps.flatMap((step) => step.needs ?? []));

/**
 * Runs the steps in order against one service, keeping each answer normalised (and raw only
 * when a later step is built from it), within what a run keeps. A step whose request cannot
 * be built or sent is not comparable; a broken connection ends the run (the caller cleans up).
 */
export async function runScenario(service: PacedService, context: ScenarioContext, steps: readonly Step[], side: ScenarioSide): Promise<Map<string, StepOutcome>> {
  const outcomes = new Map<string, StepOutcome>();
  const needed = neededBy(steps);
  for (const step of steps) {
    const request = step.request(context);
    if (request === undefined) {
      outcomes.set(step.name, { unanswered: 'its request could not be built from the earlier answers' });
      continue;
    }
    const answer = await service.send({ ...request, label: step.name });
    if ('unanswered' in answer) {
      outcomes.set(step.name, answer);
      continue;
    }
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok && step.creates !== undefined) context.created.set(step.creates, { id: createdId(step, answer, context), key: request.key ?? 'account' });
    if (ok && step.deletes !== undefined) context.created.delete(step.deletes);
    if (needed.has(step.name)) {
      side.kept.chargeJson(answer.body, step.name);
      context.answers.set(step.name, answer);
    }
    for (const found of step.specification?.(answer, context) ?? []) side.findings.push({ ...found, side: side.side, step: step.name, operation: step.operation });
    const normalised = normaliseAnswer(answer, step, context);
    side.kept.chargeJson(normalised, step.name);
    outcomes.set(step.name, { answer: normalised });
  }
  return outcomes;
}

/** Why a listing could not be read: the reason, and the status when the service answered. */
export interface ListingFailed {
  failed: string;
  status?: number;
}

/** Every template of the account a key belongs to, page by page (cleanup's requests when given a deadline). */
export async function listTemplates(service: PacedService, key: KeyUse, deadline?: number): Promise<Required<ListedTemplate>[] | ListingFailed> {
  const templates: Required<ListedTemplate>[] = [];
  for (let page = 1; ; page++) {
    const request = { method: 'GET' as const, path: TEMPLATES, query: { limit: 100, page }, key, label: deadline === undefined ? 'the listing before the run' : 'cleanup' };
    const answer = deadline === undefined ? await service.send(request) : await service.sendCleanup(request, deadline);
    if ('unanswered' in answer) return { failed: answer.unanswered };
    const body = answer.body as { data?: Required<ListedTemplate>[]; total?: number } | undefined;
    if (answer.status !== 200 || !Array.isArray(body?.data)) return { failed: `listing templates answered ${answer.status}`, status: answer.status };
    templates.push(...body.data.filter((template) => typeof template === 'object' && template !== null && typeof template.name === 'string'));
    if (body.data.length === 0 || templates.length >= (body.total ?? 0)) return templates;
  }
}

/** Deletes these templates; those whose delete did not succeed are returned. */
export async function deleteTemplates(service: PacedService, templates: readonly { id: string; key: KeyUse }[], deadline: number): Promise<string[]> {
  const left: string[] = [];
  for (const { id, key } of templates) {
    const answer = await service.sendCleanup({ method: 'DELETE', path: `${TEMPLATES}/${encodeURIComponent(id)}`, key, label: 'cleanup' }, deadline);
    // Any success deleted it; 404: already gone, which is what cleanup wants.
    if ('unanswered' in answer || !((answer.status >= 200 && answer.status < 300) || answer.status === 404)) left.push(id);
  }
  return left;
}

/** This run's templates an account still holds (named with its prefix, not held before the run). */
async function stillThere(service: PacedService, context: ScenarioContext, key: KeyUse, deadline: number): Promise<Required<ListedTemplate>[] | ListingFailed> {
  const listed = await listTemplates(service, key, deadline);
  return 'failed' in listed ? listed : listed.filter((template) => template.name.startsWith(context.prefix) && !context.heldIds.has(template.id));
}

/**
 * Deletes what this run created, then looks: any template still named with this run's prefix
 * (one whose create went unanswered, or whose delete did not take) that the account did not
 * hold before is deleted too, and looked for once more. Returns what is left behind, each named.
 */
export async function cleanUp(service: PacedService, context: ScenarioContext, now: () => number): Promise<string[]> {
  const deadline = now() + CLEANUP_MS;
  await deleteTemplates(service, [...context.created.values()], deadline);
  context.created.clear();
  const left: string[] = [];
  for (const key of creatorsOf(context)) {
    const whose = key === 'account' ? '' : " (the other account's)";
    let ours = await stillThere(service, context, key, deadline);
    if (!('failed' in ours) && ours.length > 0) {
      await deleteTemplates(service, ours.filter((template) => SERVICE_ID.test(template.id)).map((template) => ({ id: template.id, key })), deadline);
      ours = await stillThere(service, context, key, deadline);
    }
    if ('failed' in ours) left.push(`any template named ${context.prefix}…${whose}: they could not be listed (${ours.failed})`);
    else left.push(...ours.map((template) => `"${template.name}" (id ${template.id})${whose}`));
  }
  return left;
}
