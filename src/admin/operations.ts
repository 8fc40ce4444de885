import { z } from 'zod';
import {
  analysisTypeSchema,
  issuePath,
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  vegetationIndexDefaultsSchema,
  type Catalogs,
  type Queue,
  type QueueRun,
} from '../contract/index.js';
import { fixturesSchema } from '../contract/fixtures.js';
import type { IssuedKey, Store } from '../server/store/index.js';
import { AdminError } from './errors.js';

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issuePath(issue.path) || '(top level)'}: ${issue.message}`).join('; ');
}

export function createAccount(store: Store, options: { name?: string; templateLimit?: number }): IssuedKey {
  return store.accounts.create(options);
}

export function setTemplateLimit(store: Store, accountId: string, templateLimit: number): void {
  if (!store.accounts.get(accountId)) throw new AdminError('not-found', `no account ${accountId}`);
  store.accounts.setTemplateLimit(accountId, templateLimit);
}

export function createKey(store: Store, accountId: string, subUserName?: string): IssuedKey {
  const issued = store.keys.create(accountId, subUserName === undefined ? {} : { subUserName });
  if (!issued) throw new AdminError('not-found', `no account ${accountId}`);
  return issued;
}

export function revokeKey(store: Store, keyOrId: string): void {
  if (!store.keys.revoke(keyOrId)) throw new AdminError('not-found', 'no such key (or it was already revoked)');
}

/** `LOT:ANALYSIS_TYPE`, as `admin queues create --step` takes it. */
export function parseStep(text: string): { lotId: string; analysisType: z.infer<typeof analysisTypeSchema> } {
  const at = text.lastIndexOf(':');
  const lotId = text.slice(0, at);
  const analysisType = analysisTypeSchema.safeParse(text.slice(at + 1));
  if (at <= 0 || !analysisType.success) {
    throw new AdminError('invalid', `--step ${text}: expected LOT:ANALYSIS_TYPE with a type of ${analysisTypeSchema.options.join(', ')}`);
  }
  return { lotId, analysisType: analysisType.data };
}

export function createQueue(store: Store, accountId: string, name: string, steps: string[]): Queue {
  if (!store.accounts.get(accountId)) throw new AdminError('not-found', `no account ${accountId}`);
  if (steps.length === 0) throw new AdminError('invalid', 'a queue needs at least one --step LOT:ANALYSIS_TYPE');
  return store.queues.create(accountId, { name, steps: steps.map(parseStep) });
}

export function enqueueRun(
  store: Store,
  queueId: string,
  options: { name?: string; estimatedHa?: number; failAtStep?: number },
): QueueRun {
  const queue = store.queues.getById(queueId);
  if (!queue) throw new AdminError('not-found', `no queue ${queueId}`);
  if (options.failAtStep !== undefined && (options.failAtStep < 1 || options.failAtStep > queue.steps.length)) {
    throw new AdminError('invalid', `--fail-at-step must be between 1 and ${queue.steps.length} (the queue's steps)`);
  }
  const run = store.queueRuns.enqueue(queueId, options);
  if (!run) throw new AdminError('not-found', `no queue ${queueId}`);
  return run;
}

/** The run after a life-cycle change, or why there is none: no such run, or it had finished. */
function changedRun(result: QueueRun | null | { error: 'finished' }, runId: string): QueueRun {
  if (result === null) throw new AdminError('not-found', `no queue run ${runId}`);
  if ('error' in result) throw new AdminError('conflict', `queue run ${runId} has already finished`);
  return result;
}

export const advanceRun = (store: Store, runId: string): QueueRun => changedRun(store.queueRuns.advance(runId), runId);
export const cancelRun = (store: Store, runId: string): QueueRun => changedRun(store.queueRuns.cancel(runId), runId);


export function seedFixtures(store: Store, accountId: string, document: unknown) {
  if (!store.accounts.get(accountId)) throw new AdminError('not-found', `no account ${accountId}`);
  const parsed = fixturesSchema.safeParse(document);
  if (!parsed.success) throw new AdminError('invalid', `fixtures: ${describeIssues(parsed.error)}`);
  try {
    return store.fixtures.apply(accountId, parsed.data);
  } catch (error) {
    throw new AdminError('invalid', `fixtures: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const catalogImportSchema = z.strictObject({
  reportTypes: reportTypesCatalogSchema.optional(),
  statistics: statisticsCatalogSchema.optional(),
  vegetationIndexDefaults: vegetationIndexDefaultsSchema.optional(),
});

/** The platform administrator's catalogs; any of the three, each replaced whole. */
export function importCatalogs(store: Store, document: unknown): (keyof Catalogs)[] {
  const parsed = catalogImportSchema.safeParse(document);
  if (!parsed.success) throw new AdminError('invalid', `catalogs: ${describeIssues(parsed.error)}`);
  const given = Object.keys(parsed.data) as (keyof Catalogs)[];
  if (given.length === 0) throw new AdminError('invalid', 'catalogs: give reportTypes, statistics or vegetationIndexDefaults');
  store.catalogs.import(parsed.data);
  return given;
}
