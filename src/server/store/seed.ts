import type Database from 'better-sqlite3';
import type { Catalogs, Preset } from '../../contract/index.js';
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
