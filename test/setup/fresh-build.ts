import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the build reads besides src/. */
const BUILD_INPUTS = ['scripts/build.mjs'];
/** The build's pieces, one module each (none in a copy made before they were split out). */
const BUILD_PIECES = 'scripts/build';

/** The newest file under `dir`, with its modification time. */
function newestFile(dir: string): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(path);
    if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return newest;
}

/**
 * Why dist/ in `root` does not reflect its sources, or undefined when it does: dist/ is
 * missing, or a file in src/ (or scripts/build.mjs, scripts/build/) changed after the oldest bundle was written.
 */
export function staleBuild(root: string): string | undefined {
  let bundles: { path: string; mtimeMs: number }[];
  try {
    bundles = readdirSync(join(root, 'dist'))
      .filter((name) => name.endsWith('.cjs'))
      .map((name) => ({ path: join(root, 'dist', name), mtimeMs: statSync(join(root, 'dist', name)).mtimeMs }));
  } catch {
    bundles = [];
  }
  if (bundles.length === 0) return 'dist/ has no build: run npm run build';
  const built = bundles.reduce((oldest, bundle) => (bundle.mtimeMs < oldest.mtimeMs ? bundle : oldest));
  const pieces = existsSync(join(root, BUILD_PIECES)) ? newestFile(join(root, BUILD_PIECES)) : undefined;
  const inputs = [newestFile(join(root, 'src')), pieces, ...BUILD_INPUTS.map((path) => ({ path: join(root, path), mtimeMs: statSync(join(root, path)).mtimeMs }))];
  const changed = inputs.find((input) => input !== undefined && input.mtimeMs > built.mtimeMs);
  if (changed === undefined) return undefined;
  return `dist/ is older than src/: run npm run build (${relative(root, changed.path)} changed after the build)`;
}

/**
 * Refuses to run the tests against a stale build: many of them spawn bin/reportctl.js, which
 * runs dist/, and would otherwise test yesterday's code. Checking takes milliseconds, and
 * `npm test` has just built, so it costs nothing there; building here would rebuild a second
 * time on every `npm test` (or need this same check to avoid it).
 */
export default function refuseStaleBuild(): void {
  const reason = staleBuild(ROOT);
  if (reason !== undefined) throw new Error(reason);
}
