import type Database from 'better-sqlite3';
import type { Analysis, Queue, QueueRun } from '../../contract/index.js';
import type { Fixtures } from '../../contract/fixtures.js';
import type { accountsRepository } from './accounts.js';
import type { analysesRepository } from './analyses.js';
import { FixtureError } from './errors.js';
import type { queueRunsRepository } from './queue-runs.js';
import type { queuesRepository } from './queues.js';

/** The repositories fixtures are written through. */
export interface FixtureRepositories {
  db: Database.Database;
  accounts: ReturnType<typeof accountsRepository>;
  queues: ReturnType<typeof queuesRepository>;
  queueRuns: ReturnType<typeof queueRunsRepository>;
  analyses: ReturnType<typeof analysesRepository>;
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
export function applyFixtures(store: FixtureRepositories, accountId: string, fixtures: Fixtures): AppliedFixtures {
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
