import type { Analysis, Queue, QueueRun } from '../../contract/index.js';
import type { NewAnalysis } from './analyses.js';
import { FixtureError } from './errors.js';
import type { Store } from './index.js';
import type { NewQueue } from './queues.js';

export interface RunFixture {
  /** An index into this file's `queues`, or the id of a queue the account already has. */
  queue: number | string;
  name?: string;
  estimatedHa?: number;
  failAtStep?: number | null;
  /** How many times to advance the run; calls after the run has finished do nothing. */
  advance?: number;
  /** Cancel the run after advancing it (an error if it has finished by then). */
  cancel?: boolean;
}

/** The file of `admin seed --file` (its shape is checked by the caller). */
export interface Fixtures {
  queues?: NewQueue[];
  runs?: RunFixture[];
  analyses?: NewAnalysis[];
}

export interface AppliedFixtures {
  queues: Queue[];
  runs: QueueRun[];
  analyses: Analysis[];
}

/**
 * Writes the fixtures into one account in a single transaction: a fixture that refers to
 * something missing throws a FixtureError and nothing of the file is written.
 */
export function applyFixtures(store: Store, accountId: string, fixtures: Fixtures): AppliedFixtures {
  const apply = store.db.transaction((): AppliedFixtures => {
    if (!store.accounts.get(accountId)) throw new FixtureError('account', `no account ${accountId}`);

    const queues = (fixtures.queues ?? []).map((queue) => store.queues.create(accountId, queue));

    const runs = (fixtures.runs ?? []).map((plan, index) => {
      const at = `runs.${index}`;
      const queue = typeof plan.queue === 'number' ? queues[plan.queue] : store.queues.get(accountId, plan.queue);
      if (!queue) {
        const what = typeof plan.queue === 'number' ? `queues.${plan.queue} is not in this file` : `no queue ${plan.queue} in this account`;
        throw new FixtureError(`${at}.queue`, what);
      }
      let run = store.queueRuns.enqueue(queue.id, {
        name: plan.name,
        estimatedHa: plan.estimatedHa,
        failAtStep: plan.failAtStep,
      });
      if (!run) throw new FixtureError(`${at}.queue`, `no queue ${queue.id}`);
      for (let step = 0; step < (plan.advance ?? 0); step++) {
        const advanced = store.queueRuns.advance(run.id);
        if (advanced === null || 'error' in advanced) break;
        run = advanced;
      }
      if (plan.cancel) {
        const cancelled = store.queueRuns.cancel(run.id);
        if (cancelled === null || 'error' in cancelled) {
          throw new FixtureError(`${at}.cancel`, `the run is already ${run.status} and cannot be cancelled`);
        }
        run = cancelled;
      }
      return run;
    });

    const analyses = (fixtures.analyses ?? []).map((analysis) =>
      store.analyses.insert(accountId, { lotId: analysis.lotId, analysisType: analysis.analysisType, status: analysis.status }),
    );

    return { queues, runs, analyses };
  });
  return apply.immediate();
}
