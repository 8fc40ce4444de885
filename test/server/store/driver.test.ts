import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverFor, missingDriverMessage } from '../../../src/server/store/driver.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The store's statements are freed by garbage collection. better-sqlite3 12 built against
 * Node 24.19+ aborts the process there (`Assertion failed: (env) != nullptr`, exit 134), so
 * this runs the built service bundle as `serve` does, with many statements made and dropped
 * while collections run, and wants a clean exit on the driver this Node.js uses.
 */
describe('the SQLite driver', () => {
  const driver = driverFor();
  it(`${driver} survives statements freed by garbage collection`, { timeout: 120_000 }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reportctl-driver-'));
    const script = `
      const { loadCompiled } = require(${JSON.stringify(path.join(repoRoot, 'bin/code-cache.js'))});
      const embedded = loadCompiled(${JSON.stringify(path.join(repoRoot, 'dist/embedded.cjs'))});
      const store = embedded.openStore(${JSON.stringify(path.join(dir, 'gc.db'))});
      // Collections V8 starts itself, while dropped statements wait to be freed: the
      // abort needs those (a gc() called from a script finalises in a context and passes).
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 500; i++) store.db.prepare('SELECT ' + (round * 500 + i) + ' AS n').get();
        const garbage = [];
        for (let i = 0; i < 300000; i++) garbage.push({ i });
      }
      globalThis.gc();
      process.stdout.write(embedded.sqliteDriver().name);
      store.close();
    `;
    try {
      const result = spawnSync(process.execPath, ['--expose-gc', '-e', script], {
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(result.stderr).toBe('');
      expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
      expect(result.stdout).toBe(driver);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is the Node-API build from Node 22 on, and the Node 20 build only on Node 20', () => {
    expect(driverFor(20)).toBe('better-sqlite3@12');
    expect(driverFor(21)).toBe('better-sqlite3@12');
    expect(driverFor(22)).toBe('better-sqlite3@13');
    expect(driverFor(24)).toBe('better-sqlite3@13');
    expect(driverFor(26)).toBe('better-sqlite3@13');
  });

  it('when missing, says which package and how to get it: Node 20 also needs the second tarball beside reportctl.tgz', () => {
    expect(missingDriverMessage('better-sqlite3@12', '20.20.2')).toBe(
      'its SQLite driver (better-sqlite3@12, package reportctl-sqlite-node20) is not installed or was not built for Node.js 20.20.2; ' +
        'reinstall reportctl with its install scripts allowed and reportctl-sqlite-node20.tgz beside reportctl.tgz (README, Install)',
    );
    expect(missingDriverMessage('better-sqlite3@13', '24.22.3')).toBe(
      'its SQLite driver (better-sqlite3@13, package better-sqlite3-napi) is not installed or was not built for Node.js 24.22.3; reinstall reportctl (README, Install)',
    );
  });
});
