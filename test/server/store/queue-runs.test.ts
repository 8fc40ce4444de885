import { describe, expect, it } from 'vitest';
import { driverFor } from '../../../src/server/store/driver.js';
import { asRun, fixedClock, storeFiles, withQueue } from '../../helpers/store.js';

/** Queue runs (src/server/store/queue-runs.ts): their life cycle, step by step. */

const files = storeFiles();

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('queues, runs and analyses', () => {
    it('runs a queue to completion one deterministic step at a time', () => {
      const clock = fixedClock('2025-04-01T00:00:00.000Z');
      const { store, accountId, queue } = withQueue(files, { now: clock.now });
      const enqueued = store.queueRuns.enqueue(queue.id, { estimatedHa: 42.5 })!;
      expect(enqueued).toEqual({
        id: enqueued.id,
        name: 'Emergence',
        queueId: queue.id,
        status: 'pending',
        estimatedHa: 42.5,
        // Absent, not null, until each step finishes.
        steps: queue.steps.map((step) => ({ ...step, status: 'pending' })),
        createdAt: '2025-04-01T00:00:00.000Z',
        startedAt: null,
        finishedAt: null,
      });
      expect(store.queueRuns.activeRunIds()).toEqual([enqueued.id]);

      clock.set('2025-04-01T00:00:01.000Z');
      expect(asRun(store.queueRuns.advance(enqueued.id)).status).toBe('claimed');
      clock.set('2025-04-01T00:00:02.000Z');
      const running = asRun(store.queueRuns.advance(enqueued.id));
      expect(running).toMatchObject({ status: 'running', startedAt: '2025-04-01T00:00:02.000Z', finishedAt: null });
      expect(running.steps.map((step) => step.status)).toEqual(['running', 'pending', 'pending']);

      clock.set('2025-04-01T00:00:03.000Z');
      const afterFirst = asRun(store.queueRuns.advance(enqueued.id));
      expect(afterFirst.steps.map((step) => step.status)).toEqual(['completed', 'running', 'pending']);
      expect(afterFirst.steps[0]).toMatchObject({ finishedAt: '2025-04-01T00:00:03.000Z' });
      asRun(store.queueRuns.advance(enqueued.id));
      clock.set('2025-04-01T00:00:05.000Z');
      const done = asRun(store.queueRuns.advance(enqueued.id));
      expect(done).toMatchObject({ status: 'completed', finishedAt: '2025-04-01T00:00:05.000Z' });
      expect(done.steps.every((step) => step.status === 'completed' && step.analysisId && step.finishedAt)).toBe(true);
      expect(store.queueRuns.get(accountId, done.id)).toEqual(done);
      expect(store.queueRuns.activeRunIds()).toEqual([]);

      // Every finished step's analysis is listed, linked to the run.
      const analyses = store.analyses.list(accountId, { page: 1, limit: 20 }).data;
      expect(analyses.map((analysis) => analysis.id).sort()).toEqual(done.steps.map((step) => step.analysisId).sort());
      for (const step of done.steps) {
        expect(analyses.find((analysis) => analysis.id === step.analysisId)).toMatchObject({
          lotId: step.lotId,
          analysisType: step.analysisType,
          status: 'completed',
          queueRunId: done.id,
          finishedAt: step.finishedAt,
        });
      }

      expect(store.queueRuns.advance(done.id)).toEqual({ error: 'finished' });
      expect(store.queueRuns.cancel(done.id)).toEqual({ error: 'finished' });
      expect(store.queueRuns.advance('nope')).toBeNull();
      expect(store.queueRuns.cancel('nope')).toBeNull();
      expect(store.queueRuns.enqueue('nope')).toBeNull();
    });

    it('fails a run at the chosen step and skips the rest', () => {
      const { store, accountId, queue } = withQueue(files);
      const run = store.queueRuns.enqueue(queue.id, { name: 'Round 1', failAtStep: 2 })!;
      let current = run;
      for (let i = 0; i < 4; i++) current = asRun(store.queueRuns.advance(run.id));
      expect(current.status).toBe('failed');
      expect(current.name).toBe('Round 1');
      expect(current.finishedAt).not.toBeNull();
      expect(current.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped']);
      expect(current.steps[2]).not.toHaveProperty('analysisId');
      expect(current.steps[2]).not.toHaveProperty('finishedAt');
      expect(store.analyses.list(accountId, { page: 1, limit: 20, status: 'failed' }).data.map((a) => a.id)).toEqual([
        current.steps[1]!.analysisId,
      ]);
      expect(store.queueRuns.advance(run.id)).toEqual({ error: 'finished' });
    });

    it('cancels pending and running runs; unfinished steps are skipped', () => {
      const { store, accountId, queue } = withQueue(files);
      const pending = store.queueRuns.enqueue(queue.id)!;
      const cancelledPending = asRun(store.queueRuns.cancel(pending.id));
      expect(cancelledPending.status).toBe('cancelled');
      expect(cancelledPending.finishedAt).not.toBeNull();
      expect(cancelledPending.steps.every((step) => step.status === 'skipped')).toBe(true);

      const running = store.queueRuns.enqueue(queue.id)!;
      for (let i = 0; i < 3; i++) store.queueRuns.advance(running.id);
      const cancelled = asRun(store.queueRuns.cancel(running.id));
      expect(cancelled.steps.map((step) => step.status)).toEqual(['completed', 'skipped', 'skipped']);
      expect(store.queueRuns.cancel(running.id)).toEqual({ error: 'finished' });

      const list = store.queueRuns.list(accountId, { page: 1, limit: 20, status: 'cancelled' });
      expect(list.total).toBe(2);
      expect(list.data.map((run) => run.id)).toEqual([running.id, pending.id]);
      expect(store.queueRuns.list(accountId, { page: 1, limit: 20, status: 'running' }).total).toBe(0);
      expect(store.queueRuns.get(store.accounts.create().accountId, running.id)).toBeNull();
      expect(store.queueRuns.getById(running.id)).toEqual(cancelled);
    });
  });
});
