import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  // npm skips a dependency's install script unless allowScripts names it: without better-sqlite3's,
  // `npm ci` would leave `serve` without its SQLite binding and only say so in a warning.
  it('every locked package with an install script has an allowScripts entry', () => {
    const packages = read('package-lock.json').packages as Record<string, { hasInstallScript?: boolean; extraneous?: boolean }>;
    const withScripts = Object.entries(packages)
      .filter(([, entry]) => entry.hasInstallScript && !entry.extraneous)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const decided = Object.keys(read('package.json').allowScripts as Record<string, boolean>).map((key) => key.replace(/(.)@.*$/, '$1'));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !decided.includes(name))).toEqual([]);
  });
});
