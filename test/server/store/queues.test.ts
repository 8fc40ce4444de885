import { describe, expect, it } from 'vitest';
import { driverFor } from '../../../src/server/store/driver.js';
import { storeFiles, withQueue } from '../../helpers/store.js';

/** Saved queues (src/server/store/queues.ts). */

const files = storeFiles();

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('queues, runs and analyses', () => {
    it('saves queues with steps numbered from 1, per account', () => {
      const { store, accountId, queue } = withQueue(files);
      expect(queue.steps.map((step) => step.order)).toEqual([1, 2, 3]);
      expect(store.queues.get(accountId, queue.id)).toEqual(queue);
      expect(store.queues.list(accountId, 1, 20)).toEqual({ total: 1, page: 1, limit: 20, data: [queue] });
      const other = store.accounts.create();
      expect(store.queues.get(other.accountId, queue.id)).toBeNull();
      expect(store.queues.getById(queue.id)).toEqual({ ...queue, accountId });
      expect(() => store.queues.create('nope', { name: 'x', steps: [] })).toThrow(/no account/);
    });
  });
});
