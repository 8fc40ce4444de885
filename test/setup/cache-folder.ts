import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The code caches the built CLI makes (bin/code-cache.js) go to a folder of this run's, not the
 * user's: the suite's children inherit XDG_CACHE_HOME, and the folder goes when the run ends.
 * The first run of each command makes them; every later one in the run reads them.
 */
export default function cacheFolderOfTheRun(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'reportctl-test-cache-'));
  const before = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = folder;
  return () => {
    if (before === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = before;
    rmSync(folder, { recursive: true, force: true });
  };
}
