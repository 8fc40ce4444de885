// Across modules: package.json's install scripts, the Node 20 driver package and prepare.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

// docs/storage.md: better-sqlite3 12 is compiled at install, and only Node.js 20 uses it.
describe('the Node.js 20 SQLite driver', () => {
  const lock = read('package-lock.json').packages as Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
  const local = read('packages/sqlite-node20/package.json');

  it('comes only through the local package whose engines npm skips from Node.js 22 on', () => {
    const dependents = Object.entries(lock)
      .filter(([, entry]) => entry.dependencies?.['better-sqlite3'] !== undefined || entry.optionalDependencies?.['better-sqlite3'] !== undefined)
      .map(([path]) => path);
    expect(dependents).toEqual(['node_modules/reportctl-sqlite-node20']);
    expect(local.engines).toEqual({ node: '<22' });
    expect((read('package.json').optionalDependencies as Record<string, string>)['reportctl-sqlite-node20']).toBe('file:packages/sqlite-node20');
  });

  // Linked, its folder is what npm removes when the compile fails (install-failed-build.test.ts).
  it('is installed as a copy of its folder, not a link to it', () => {
    const npmrc = readFileSync(new URL('../.npmrc', import.meta.url), 'utf8');
    expect(npmrc).toMatch(/^install-links=true$/m);
    expect(lock['node_modules/reportctl-sqlite-node20']).toMatchObject({ resolved: 'file:packages/sqlite-node20', optional: true });
    expect(lock['node_modules/reportctl-sqlite-node20']).not.toHaveProperty('link');
  });

  it('is installed on Node.js 20 and not on later versions', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const installed = existsSync(new URL('../node_modules/better-sqlite3/package.json', import.meta.url));
    expect({ major, installed }).toEqual({ major, installed: major < 22 });
  });
});

describe('prepare', () => {
  // `npm install -g .` from a fresh clone runs prepare without the development dependencies.
  it('says how to install when the build tools are missing, without a stack trace', () => {
    const clone = mkdtempSync(join(tmpdir(), 'reportctl-prepare-'));
    try {
      mkdirSync(join(clone, 'scripts'));
      copyFileSync(new URL('../scripts/prepare.mjs', import.meta.url), join(clone, 'scripts/prepare.mjs'));
      const result = spawnSync(process.execPath, [join(clone, 'scripts/prepare.mjs')], { encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('npm ci && npm run pack');
      expect(result.stderr).toContain('npm install -g --allow-scripts=better-sqlite3 ./reportctl.tgz');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
