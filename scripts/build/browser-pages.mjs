import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The pages served to a browser: `serve`'s dashboard (src/dashboard/, at / with its files under
 * /dashboard/) and the page of `templates preview --watch` (src/preview-page/, its files under
 * /assets/). Each is one browser bundle and one stylesheet, named by content hash so they are
 * cached for good, and index.html, which names them. Built for the browser, so a node: import
 * (or any Node-only package) in what a page uses fails the build.
 */
export async function buildBrowserPages(dist) {
  await buildPage('src/dashboard', new URL('dashboard/', dist), '/dashboard/');
  await buildPage('src/preview-page', new URL('preview-page/', dist), '/assets/');
}

async function buildPage(source, outdir, filesPath) {
  const [script, style] = [`${source}/main.ts`, `${source}/style.css`];
  const result = await build({
    entryPoints: [script, style],
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
    return `${filesPath}${output.split('/').at(-1)}`;
  };
  const page = readFileSync(new URL(`../../${source}/index.html`, import.meta.url), 'utf8')
    .replace(`${filesPath}main.js`, built(script))
    .replace(`${filesPath}style.css`, built(style));
  writeFileSync(new URL('index.html', outdir), page);
}
