import { validateTemplateBody } from '../../contract/index.js';
import type { Store } from '../store/index.js';
import { demoQueues, demoRunPlans, demoTemplatePresetIds, type DemoRunPlan } from './demo.js';

export interface DemoKeys {
  accountId: string;
  ownerKey: string;
  subUserKey: string;
  /** Keys of the demo account that were valid before this start, revoked by it. */
  revokedKeys: number;
}

export const DEMO_ACCOUNT_NAME = 'demo';

/**
 * The demo account with fresh keys. Keys are stored only as hashes, so an existing demo
 * account gets new keys on each start, and every key it had is revoked (in the same
 * transaction): demo keys are printed, so they end up in scrollback and logs, and would
 * otherwise pile up valid. Its data is created once.
 */
export function ensureDemoAccount(store: Store): DemoKeys {
  const existing = store.accounts.list().find((account) => account.name === DEMO_ACCOUNT_NAME);
  if (existing) return store.db.transaction(() => renewDemoKeys(store, existing.id)).immediate();
  const owner = store.accounts.create({ name: DEMO_ACCOUNT_NAME });
  const subUser = store.keys.create(owner.accountId, { subUserName: 'field-technician' });
  if (!subUser) throw new Error('demo account vanished while adding keys');
  populateDemo(store, owner.accountId, owner.userId);
  return { accountId: owner.accountId, ownerKey: owner.apiKey, subUserKey: subUser.apiKey, revokedKeys: 0 };
}

function renewDemoKeys(store: Store, accountId: string): DemoKeys {
  const valid = store.keys.list(accountId).filter((key) => key.revokedAt === null);
  for (const key of valid) store.keys.revoke(key.id);
  const owner = store.keys.create(accountId, {});
  const subUser = store.keys.create(accountId, { subUserName: 'field-technician' });
  if (!owner || !subUser) throw new Error('demo account vanished while adding keys');
  return { accountId, ownerKey: owner.apiKey, subUserKey: subUser.apiKey, revokedKeys: valid.length };
}

/**
 * Keeps the demo alive under `--simulate`: each call enqueues a run of the demo's next queue
 * in turn, so whoever follows the README tour has a run moving to watch.
 */
export function nextDemoRun(store: Store, accountId: string): () => void {
  let turn = 0;
  return () => {
    const queues = store.queues.list(accountId, 1, 100).data;
    const queue = queues[turn++ % Math.max(1, queues.length)];
    if (queue) store.queueRuns.enqueue(queue.id, { name: `${queue.name} (live)`, estimatedHa: 40 + ((turn * 17) % 80) });
  };
}

function populateDemo(store: Store, accountId: string, userId: string): void {
  for (const { presetId, name } of demoTemplatePresetIds) {
    const preset = store.presets.get(presetId);
    if (!preset) continue;
    const validation = validateTemplateBody({ ...preset.seedPayload, name }, store.catalogs.get());
    if (!validation.success) throw new Error(`preset ${presetId} does not make a valid template`);
    store.templates.create(accountId, userId, validation.template);
  }
  store.fixtures.apply(accountId, {
    queues: demoQueues.map(({ name, steps }) => ({ name, steps: steps.map(({ lotId, analysisType }) => ({ lotId, analysisType })) })),
    runs: demoRunPlans.map((plan) => ({
      queue: plan.queueIndex,
      name: plan.name,
      estimatedHa: plan.estimatedHa,
      ...(plan.failAtStep !== undefined ? { failAtStep: plan.failAtStep } : {}),
      advance: advancesFor(plan, demoQueues[plan.queueIndex]?.steps.length ?? 0),
      ...(plan.targetStatus === 'cancelled' ? { cancel: true } : {}),
    })),
  });
}

/**
 * How many `advance` calls bring a new run to the plan's state: one to claim, one to start
 * (step 1 running), then one per finished step.
 */
function advancesFor(plan: DemoRunPlan, steps: number): number {
  switch (plan.targetStatus) {
    case 'pending':
      return 0;
    case 'claimed':
      return 1;
    case 'running':
    case 'cancelled':
      return 2 + (plan.completedSteps ?? 0);
    case 'failed':
      return 2 + (plan.failAtStep ?? steps);
    default:
      return 2 + steps;
  }
}
