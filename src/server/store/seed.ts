import type Database from 'better-sqlite3';
import type { Catalogs, Preset, VegetationIndexDefaults } from '../../contract/index.js';
import { catalogNames } from './catalogs.js';

/**
 * First-start content. Inserts each catalog document and each preset (by id) only when it
 * is absent, so an administrator's edits survive restarts while presets added by a newer
 * release still appear. The content is a parameter: the store does not know the seed.
 */
export function seedCatalogsIfEmpty(
  db: Database.Database,
  catalogs: Catalogs,
  presets: readonly Preset[],
  now: () => Date = () => new Date(),
): { catalogs: string[]; presets: number } {
  const insertCatalog = db.prepare<[string, string, string]>(
    'INSERT INTO catalogs (name, document, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const insertPreset = db.prepare<[string, string]>('INSERT INTO presets (id, document) VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
  const seed = db.transaction(() => {
    const updatedAt = now().toISOString();
    const inserted: string[] = [];
    for (const key of Object.keys(catalogNames) as Array<keyof Catalogs>) {
      if (insertCatalog.run(catalogNames[key], JSON.stringify(catalogs[key]), updatedAt).changes > 0) {
        inserted.push(catalogNames[key]);
      }
    }
    let presetCount = 0;
    for (const preset of presets) presetCount += insertPreset.run(preset.id, JSON.stringify(preset)).changes;
    return { catalogs: inserted, presets: presetCount };
  });
  return seed.immediate();
}

/**
 * Adds to the vegetation-index catalog each of `functionNames` this database has never been
 * given, and records it in formula_functions: a new release's formula functions reach an
 * existing database, once, so a function an administrator removed stays removed. Returns the
 * names added. Nothing happens before the catalog is seeded (the seed carries them).
 */
export function addNewFormulaFunctions(
  db: Database.Database,
  functionNames: readonly string[],
  now: () => Date = () => new Date(),
): string[] {
  const given = db.prepare<[], string>('SELECT name FROM formula_functions').pluck();
  const record = db.prepare<[string, string]>('INSERT INTO formula_functions (name, added_at) VALUES (?, ?)');
  const catalog = db.prepare<[string], string>('SELECT document FROM catalogs WHERE name = ?').pluck();
  const update = db.prepare<[string, string, string]>('UPDATE catalogs SET document = ?, updated_at = ? WHERE name = ?');
  const add = db.transaction((): string[] => {
    const known = new Set(given.all());
    const fresh = functionNames.filter((name) => !known.has(name));
    const document = catalog.get(catalogNames.vegetationIndexDefaults);
    if (fresh.length === 0 || document === undefined) return [];
    const defaults = JSON.parse(document) as VegetationIndexDefaults;
    const allowed = defaults.customFormula.allowedFunctions;
    const added = fresh.filter((name) => !allowed.includes(name));
    const addedAt = now().toISOString();
    if (added.length > 0) {
      allowed.push(...added);
      update.run(JSON.stringify(defaults), addedAt, catalogNames.vegetationIndexDefaults);
    }
    for (const name of fresh) record.run(name, addedAt);
    return added;
  });
  return add.immediate();
}
