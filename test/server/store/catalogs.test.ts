import { describe, expect, it } from 'vitest';
import { seedCatalogsIfEmpty } from '../../../src/server/store/index.js';
import { driverFor } from '../../../src/server/store/driver.js';
import { catalogs, presets, storeFiles } from '../../helpers/store.js';

/** Catalogs and presets (src/server/store/catalogs.ts): seeded once, cached, seen changed. */

const files = storeFiles();
const { dbFile, open } = files;

// On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
describe(`on ${driverFor()}`, () => {
  describe('catalogs and presets', () => {
    it('seeds only what is absent, so an administrator’s edits survive', () => {
      const store = open();
      expect(seedCatalogsIfEmpty(store.db, catalogs, presets)).toEqual({
        catalogs: ['report-types', 'statistics', 'vegetation-index-defaults'],
        presets: 3 });
      expect(store.catalogs.get()).toEqual(catalogs);
      store.catalogs.import({ statistics: { counting: ['edited'], replanting: [], path: [] } });
      const more = [...presets, { ...presets[0]!, id: 'preset-new' }];
      expect(seedCatalogsIfEmpty(store.db, catalogs, more)).toEqual({ catalogs: [], presets: 1 });
      expect(store.catalogs.statistics().counting).toEqual(['edited']);
      expect(store.catalogs.reportTypes()).toEqual(catalogs.reportTypes);
    });

    it('lists presets in seed order and finds them by id', () => {
      const store = open();
      seedCatalogsIfEmpty(store.db, catalogs, presets);
      const first = store.presets.list(1, 2);
      expect(first.total).toBe(3);
      expect(first.data.map((preset) => preset.id)).toEqual(['preset-b', 'preset-a']);
      expect(store.presets.list(2, 2).data.map((preset) => preset.id)).toEqual(['preset-c']);
      expect(store.presets.get('preset-a')).toEqual(presets[1]);
      expect(store.presets.get('nope')).toBeNull();
    });

    it('says so when the catalogs were never seeded', () => {
      expect(() => open().catalogs.get()).toThrow(/not seeded/);
    });

    it('parses once, hands out frozen documents, and sees a change from another connection at the next call', () => {
      const file = dbFile();
      const server = open(file);
      seedCatalogsIfEmpty(server.db, catalogs, presets);
      const first = server.catalogs.get();
      expect(server.catalogs.get()).toBe(first); // cached: no re-parse
      expect(Object.isFrozen(first.statistics.counting)).toBe(true);

      const admin = open(file);
      admin.catalogs.import({
        statistics: { counting: ['fromAdmin'], replanting: [], path: [] },
        vegetationIndexDefaults: { ...catalogs.vegetationIndexDefaults, indexNames: ['NDVI'] } });
      const next = server.catalogs.get();
      expect(next).not.toBe(first);
      expect(next.statistics.counting).toEqual(['fromAdmin']);
      expect(server.catalogs.vegetationIndexDefaults().indexNames).toEqual(['NDVI']);
      expect(next.reportTypes).toEqual(catalogs.reportTypes);

      // Its own import is seen at once too.
      server.catalogs.import({ statistics: catalogs.statistics });
      expect(server.catalogs.statistics()).toEqual(catalogs.statistics);
    });
  });
});
