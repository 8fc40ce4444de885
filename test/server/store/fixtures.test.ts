import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../src/contract/fixtures.js';
import { FixtureError } from '../../../src/server/store/index.js';
import { driverFor } from '../../../src/server/store/driver.js';
import { storeFiles } from '../../helpers/store.js';

/** Fixtures (src/server/store/fixtures.ts): applied whole or not at all. */

const files = storeFiles();
const { open } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('fixtures', () => {
    it('applies queues, runs and analyses', () => {
      const store = open();
      const { accountId } = store.accounts.create();
      const saved = store.queues.create(accountId, { name: 'Saved', steps: [{ lotId: 'lot-9', analysisType: 'path' }] });
      const applied = store.fixtures.apply(accountId, {
        queues: [{ name: 'Q', steps: [{ lotId: 'a', analysisType: 'counting' }, { lotId: 'b', analysisType: 'counting' }] }],
        runs: [
          { queue: 0, advance: 99 },
          { queue: 0, failAtStep: 1, advance: 3 },
          { queue: 0, advance: 3, cancel: true },
          { queue: saved.id, name: 'Claimed', advance: 1 },
        ],
        analyses: [{ lotId: 'x', analysisType: 'replanting', status: 'completed' }] });
      expect(applied.runs.map((run) => run.status)).toEqual(['completed', 'failed', 'cancelled', 'claimed']);
      expect(applied.runs[2]!.steps.map((step) => step.status)).toEqual(['completed', 'skipped']);
      expect(store.queues.list(accountId, 1, 20).total).toBe(2);
      expect(store.analyses.list(accountId, { page: 1, limit: 20 }).total).toBe(2 + 1 + 1 + 1);
    });

    it('writes nothing when a fixture refers to something missing', () => {
      const store = open();
      const { accountId } = store.accounts.create();
      const bad: Fixtures = {
        queues: [{ name: 'Q', steps: [{ lotId: 'a', analysisType: 'counting' }] }],
        runs: [{ queue: 0, advance: 5 }, { queue: 3 }],
        analyses: [{ lotId: 'x', analysisType: 'counting', status: 'completed' }] };
      expect(() => store.fixtures.apply(accountId, bad)).toThrow(FixtureError);
      expect(() => store.fixtures.apply(accountId, bad)).toThrow(/runs\.1\.queue/);
      expect(() => store.fixtures.apply(accountId, { runs: [{ queue: 'no-such-queue' }] })).toThrow(/no queue no-such-queue/);
      expect(() => store.fixtures.apply(accountId, { runs: [{ queue: 0, advance: 9, cancel: true }], queues: bad.queues })).toThrow(
        /cannot be cancelled/,
      );
      expect(() => store.fixtures.apply('nope', { queues: bad.queues })).toThrow(FixtureError);

      expect(store.queues.list(accountId, 1, 20).total).toBe(0);
      expect(store.queueRuns.list(accountId, { page: 1, limit: 20 }).total).toBe(0);
      expect(store.analyses.list(accountId, { page: 1, limit: 20 }).total).toBe(0);
      expect(store.db.prepare('SELECT count(*) FROM queues').pluck().get()).toBe(0);
    });
  });
});
