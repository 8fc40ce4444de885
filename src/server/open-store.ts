import { openDatabase, type OpenDatabaseOptions } from './store/db.js';
import { createStore, type Store } from './store/index.js';
import { addNewFormulaFunctions, seedCatalogsIfEmpty } from './store/seed.js';
import { presets, seedCatalogs } from '../contract/default-catalogs.js';

/** The database at `dbPath`, migrated and seeded: what `serve` and every `admin` command use. */
export function openStore(dbPath: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(dbPath, options);
  try {
    seedCatalogsIfEmpty(db, seedCatalogs, presets);
    addNewFormulaFunctions(db, seedCatalogs.vegetationIndexDefaults.customFormula.allowedFunctions);
    return createStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}
