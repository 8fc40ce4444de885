import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presets, seedCatalogs } from '../../../src/contract/default-catalogs.js';
import { formulaFunctions } from '../../../src/formula/index.js';
import { openStore } from '../../../src/server/open-store.js';
import { addNewFormulaFunctions, migrate, migrations, seedCatalogsIfEmpty, type Store } from '../../../src/server/store/index.js';
import { sqliteDriver } from '../../../src/server/store/driver.js';

const { Database } = sqliteDriver();

// Formula functions reach an existing database's catalog: the registry is the source, the
// formula_functions table (migration 4) remembers what each database has been given.

let dir: string;
const opened: Store[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reportctl-functions-'));
});
afterEach(() => {
  for (const s of opened.splice(0)) if (s.db.open) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const dbFile = (): string => path.join(dir, 'store.db');

function store(file = dbFile()): Store {
  const s = openStore(file);
  opened.push(s);
  return s;
}

const registryNames = formulaFunctions.map((fn) => fn.name);
const allowedFunctions = (s: Store): readonly string[] => s.catalogs.vegetationIndexDefaults().customFormula.allowedFunctions;
const given = (db: BetterSqlite3.Database): string[] =>
  db.prepare<[], string>('SELECT name FROM formula_functions ORDER BY name').pluck().all();

describe('the formula function catalog', () => {
  it('seeds a new database with every function of the registry, each recorded as given', () => {
    const s = store();
    expect(allowedFunctions(s)).toEqual(registryNames);
    expect(given(s.db)).toEqual([...registryNames].sort());
  });

  it('upgrades a database made before the table without undoing what its administrator removed', () => {
    // A file as release 3 left it, whose administrator had taken `abs` out of the catalog.
    const old = new Database(dbFile());
    try {
      migrate(old, migrations.slice(0, 3));
      const oldCatalogs = structuredClone(seedCatalogs);
      oldCatalogs.vegetationIndexDefaults.customFormula.allowedFunctions = ['sqrt'];
      seedCatalogsIfEmpty(old, oldCatalogs, presets);
    } finally {
      old.close();
    }

    const s = store();
    expect(s.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(given(s.db)).toEqual(expect.arrayContaining(['abs', 'sqrt']));
    expect(allowedFunctions(s)).toEqual(['sqrt']);
  });

  it('gives an existing database a function of the registry it has never had, once', () => {
    // The database as it was before `abs` existed: no row for it, not in the catalog.
    const first = store();
    const without = structuredClone(first.catalogs.vegetationIndexDefaults());
    without.customFormula.allowedFunctions = without.customFormula.allowedFunctions.filter((name) => name !== 'abs');
    first.catalogs.import({ vegetationIndexDefaults: without });
    first.db.prepare("DELETE FROM formula_functions WHERE name = 'abs'").run();
    first.close();

    const reopened = store();
    expect(allowedFunctions(reopened)).toContain('abs');
    expect(given(reopened.db)).toContain('abs');
  });

  it('does not undo an administrator who removed a function', () => {
    const first = store();
    const without = structuredClone(first.catalogs.vegetationIndexDefaults());
    without.customFormula.allowedFunctions = ['sqrt'];
    first.catalogs.import({ vegetationIndexDefaults: without });
    first.close();

    expect(allowedFunctions(store())).toEqual(['sqrt']);
  });

  it('adds the functions a newer registry brings, without repeating one already allowed', () => {
    const s = store();
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(addNewFormulaFunctions(s.db, [...registryNames, 'log'], () => at)).toEqual(['log']);
    expect(allowedFunctions(s)).toEqual([...registryNames, 'log']);
    expect(s.db.prepare("SELECT updated_at FROM catalogs WHERE name = 'vegetation-index-defaults'").pluck().get()).toBe(at.toISOString());
    expect(addNewFormulaFunctions(s.db, [...registryNames, 'log'])).toEqual([]);

    // Allowed by hand before the release that brings it: recorded, not listed twice.
    const withExp = structuredClone(s.catalogs.vegetationIndexDefaults());
    withExp.customFormula.allowedFunctions.push('exp');
    s.catalogs.import({ vegetationIndexDefaults: withExp });
    expect(addNewFormulaFunctions(s.db, ['exp'])).toEqual([]);
    expect(given(s.db)).toContain('exp');
    expect(allowedFunctions(s).filter((name) => name === 'exp')).toHaveLength(1);
  });
});
