import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
