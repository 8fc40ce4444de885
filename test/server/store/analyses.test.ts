import { describe, expect, it } from 'vitest';
import { driverFor } from '../../../src/server/store/driver.js';
import { fixedClock, storeFiles } from '../../helpers/store.js';

/** Analyses (src/server/store/analyses.ts): the v2 filters and the legacy list. */

const files = storeFiles();
const { dbFile, open } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('queues, runs and analyses', () => {
    it('filters analyses with AND; the legacy list applies only the first filter, in storage order', () => {
      const clock = fixedClock();
      const store = open(dbFile(), { now: clock.now });
      const { accountId } = store.accounts.create();
      const rows = [
        { lotId: 'lot-1', analysisType: 'counting', status: 'completed' },
        { lotId: 'lot-1', analysisType: 'path', status: 'failed' },
        { lotId: 'lot-2', analysisType: 'counting', status: 'failed' },
        { lotId: 'lot-1', analysisType: 'counting', status: 'failed' },
      ].map((row) => store.analyses.insert(accountId, row).id);
      const other = store.accounts.create();
      store.analyses.insert(other.accountId, { lotId: 'lot-1', analysisType: 'counting', status: 'failed' });

      const ids = (filter: { lotId?: string; analysisType?: string; status?: string }) =>
        store.analyses.list(accountId, { page: 1, limit: 20, ...filter }).data.map((analysis) => analysis.id);
      expect(ids({})).toEqual([...rows].reverse());
      expect(ids({ lotId: 'lot-1', status: 'failed' })).toEqual([rows[3], rows[1]]);
      expect(ids({ lotId: 'lot-1', analysisType: 'counting', status: 'failed' })).toEqual([rows[3]]);

      const legacy = store.analyses.legacyList(accountId, { lotId: 'lot-1', status: 'failed' });
      expect(legacy.data.map((analysis) => analysis.id)).toEqual([rows[0], rows[1], rows[3]]);
      expect(legacy.total).toBe(3);
      expect(store.analyses.legacyList(accountId, { analysisType: 'counting', status: 'completed' }).total).toBe(3);
      expect(store.analyses.legacyList(accountId, {}).total).toBe(4);
    });
  });
});
