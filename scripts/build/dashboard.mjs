import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The page `serve` answers at / (src/dashboard/): one browser bundle and one stylesheet, named
 * by content hash so they are cached for good, and index.html, which names them. Built for the
 * browser, so a node: import (or any Node-only package) in what the page uses fails the build.
 */
export async function buildDashboard(outdir) {
  const result = await build({
    entryPoints: ['src/dashboard/main.ts', 'src/dashboard/style.css'],
    outdir: outdir.pathname,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const built = (entry) => {
    const [output] = Object.entries(result.metafile.outputs).find(([, meta]) => meta.entryPoint === entry) ?? [];
    if (!output) throw new Error(`build: no output for ${entry}`);
    return `/dashboard/${output.split('/').at(-1)}`;
  };
  const page = readFileSync(new URL('../../src/dashboard/index.html', import.meta.url), 'utf8')
    .replace('/dashboard/main.js', built('src/dashboard/main.ts'))
    .replace('/dashboard/style.css', built('src/dashboard/style.css'));
  writeFileSync(new URL('index.html', outdir), page);
}
