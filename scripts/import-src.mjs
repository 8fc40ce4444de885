// Imports TypeScript sources from src/ in a script: `entry` is bundled with esbuild (zod and
// the rest included, so one module instance of each) to a temporary file that is imported.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The module `entry` (TypeScript, paths from the repository's root) evaluates to. */
export async function importSource(entry) {
  const bundle = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'warning',
  });
  const dir = mkdtempSync(join(tmpdir(), 'reportctl-src-'));
  try {
    const file = join(dir, 'entry.mjs');
    writeFileSync(file, bundle.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
