import { normaliseAnswer, PREFIX_FAMILY, type NormalisedAnswer } from './normalise.js';
import type { PacedService, Unanswered } from './paced.js';
import type { ListedTemplate, ScenarioContext, Step } from './context.js';
import { scenario } from './scenario.js';

/** What one service made of a step. */
export type StepOutcome = { answer: NormalisedAnswer } | Unanswered;

const TEMPLATES = '/api/v2/templates';
/** Why a request went unanswered when it may still have reached the service. */
const MAY_HAVE_ARRIVED = /^(no answer|interrupted|the answer is not JSON)/;
/** Cleanup gets this long after the scenario, whatever stopped it. */
export const CLEANUP_MS = 30_000;

export function newContext(random: () => number, before: readonly ListedTemplate[] = []): ScenarioContext {
  const run = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return { prefix: `${PREFIX_FAMILY}${run}-`, before, answers: new Map(), created: new Map() };
}

/** The requests a run keeps back for its cleanup: a delete per template, and a listing. */
export const cleanupReserve = (context: ScenarioContext) => () => context.created.size + 2;

/**
 * Runs the steps in order against one service. A step whose request cannot be built or sent
 * is not comparable; a broken connection ends the run (the caller cleans up).
 */
export async function runScenario(service: PacedService, context: ScenarioContext, steps: readonly Step[] = scenario): Promise<Map<string, StepOutcome>> {
  const outcomes = new Map<string, StepOutcome>();
  for (const step of steps) {
    const request = step.request(context);
    if (request === undefined) {
      outcomes.set(step.name, { unanswered: 'an earlier step it needs was not answered' });
      continue;
    }
    const answer = await service.send(request);
    if ('unanswered' in answer) {
      // A create that may have reached the service: the cleanup sweeps for this run's prefix.
      if (step.creates !== undefined && MAY_HAVE_ARRIVED.test(answer.unanswered)) context.created.set(`${step.creates}?`, '');
      outcomes.set(step.name, answer);
      continue;
    }
    context.answers.set(step.name, answer);
    const ok = answer.status >= 200 && answer.status < 300;
    const id = (answer.body as { id?: unknown } | undefined)?.id;
    if (ok && step.creates !== undefined && typeof id === 'string') context.created.set(step.creates, id);
    if (ok && step.deletes !== undefined) context.created.delete(step.deletes);
    outcomes.set(step.name, { answer: normaliseAnswer(answer, step, context) });
  }
  return outcomes;
}

interface ListedWithId extends ListedTemplate {
  id: string;
}

/** Why a listing could not be read: the reason, and the status when the service answered. */
export interface ListingFailed {
  failed: string;
  status?: number;
}

/** Every template of the account, page by page. */
export async function listTemplates(service: PacedService, send: 'scenario' | number = 'scenario'): Promise<ListedWithId[] | ListingFailed> {
  const templates: ListedWithId[] = [];
  for (let page = 1; ; page++) {
    const request = { method: 'GET' as const, path: TEMPLATES, query: { limit: 100, page } };
    const answer = send === 'scenario' ? await service.send(request) : await service.sendCleanup(request, send);
    if ('unanswered' in answer) return { failed: answer.unanswered };
    const body = answer.body as { data?: ListedWithId[]; total?: number } | undefined;
    if (answer.status !== 200 || !Array.isArray(body?.data)) return { failed: `listing templates answered ${answer.status}`, status: answer.status };
    templates.push(...body.data);
    if (body.data.length === 0 || templates.length >= (body.total ?? 0)) return templates;
  }
}

/** Deletes these templates; what could not be deleted is returned. */
export async function deleteTemplates(service: PacedService, ids: readonly string[], deadline: number): Promise<string[]> {
  const left: string[] = [];
  for (const id of ids) {
    const answer = await service.sendCleanup({ method: 'DELETE', path: `${TEMPLATES}/${encodeURIComponent(id)}` }, deadline);
    // 404: already gone, which is what cleanup wants.
    if ('unanswered' in answer || (answer.status !== 204 && answer.status !== 404)) left.push(id);
  }
  return left;
}

/**
 * Deletes what this run created: the templates it knows, and, when a create went unanswered,
 * whatever else carries this run's own prefix. Returns the names or ids left behind.
 */
export async function cleanUp(service: PacedService, context: ScenarioContext, now: () => number): Promise<string[]> {
  const deadline = now() + CLEANUP_MS;
  const known = [...context.created.values()].filter((id) => id !== '');
  const left = await deleteTemplates(service, known, deadline);
  const uncertain = [...context.created.keys()].some((label) => label.endsWith('?'));
  context.created.clear();
  if (!uncertain) return left;
  const listed = await listTemplates(service, deadline);
  if ('failed' in listed) return [...left, `templates named ${context.prefix}… (${listed.failed})`];
  const ours = listed.filter((template) => template.name.startsWith(context.prefix) && !known.includes(template.id)).map((template) => template.id);
  return [...left, ...(await deleteTemplates(service, ours, deadline))];
}
