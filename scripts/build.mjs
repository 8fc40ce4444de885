// Bundles src/ into CommonJS: dist/main.cjs (the CLI), dist/vendor-<package>.cjs (the client's
// packages, one file each), dist/embedded.cjs (serve, admin, with fastify), and the pages served
// to a browser: serve's dashboard into dist/dashboard/, `templates preview --watch`'s into
// dist/preview-page/. Other packages stay outside and load where a command needs them;
// esbuild runs each module's body on first use. CommonJS files start measurably faster than a
// tree of ES modules, and compiling a file is most of a short command's start-up, so each file
// V8 may compile from a code cache is wrapped for bin/code-cache.js, which keeps the caches in
// the user's cache folder. ESM-only packages (chalk, ora, conf, inquirer) are loaded with
// import() from a small file apart.
// Each piece of the build's start-up work is a module of scripts/build/ (docs/performance.md
// keeps their ledger); this file runs them in order.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { binFiles } from './build/bin-files.mjs';
import { CHECKS, CHECKS_SOURCE, checkFiles } from './build/check-files.mjs';
import { buildBrowserPages } from './build/browser-pages.mjs';
import { isEsmOnly } from './build/esm-only.mjs';
import { APART, keepApart } from './build/keep-apart.mjs';
import { lazyBuiltins } from './build/lazy-builtins.mjs';
import { lazyFastify } from './build/lazy-fastify.mjs';
import { lazyHttp2 } from './build/lazy-http2.mjs';
import { sourceEdits } from './build/source-edits.mjs';
import { VENDORED, vendor, vendorFile, vendorSpecifiers } from './build/vendor.mjs';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Bundled: commander (every command's path) and what the client path needs (undici, zod,
// cli-table3), so a network command loads a few files instead of some 200 from node_modules
// (bench/startup.mjs; test/cli/lazy-imports.test.ts). Each client package goes into a file of
// its own, dist/vendor-<package>.cjs, so `formula check` and `--help` keep a small file and
// cache, and a command reads and deserialises only the packages it runs.
// The ESM-only packages stay outside (see import-package.ts), as do the service's.
const bundled = new Set(['commander', ...VENDORED]);
// The SQLite drivers (optional dependencies, one per Node line) load from node_modules.
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies)].filter((name) => !bundled.has(name));

// Build beside dist/ and swap it in, so a running test never sees a half-written dist/.
const staging = new URL(`../.dist-${process.pid}/`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  // Short local names: a quarter less source to read and hold at every start (stack traces
  // map back through the linked source maps, with --enable-source-maps).
  minifyIdentifiers: true,
  // Licence comments go to <file>.LEGAL.txt: one with a non-ASCII name made V8 hold a whole
  // bundle as two-byte text, twice the memory to read and keep.
  legalComments: 'linked',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};
const { WRAPPER_START } = require('../bin/code-cache.js');
/** Stands for the build's id in each wrapped file until the files are made and hashed. */
const PENDING_ID = 'ffffffffffffffff';
try {
  // Each file V8 compiles from a cache (bin/code-cache.js) is one function expression, the
  // wrapper Node's loader would add: compiled as it is read, with no second copy of the text.
  const compiledWhole = {
    banner: { js: `${WRAPPER_START}${PENDING_ID}` },
    footer: { js: '})' },
  };
  const cli = await build({
    ...common,
    entryPoints: ['src/main.ts'],
    outfile: new URL('main.cjs', staging).pathname,
    plugins: [binFiles, keepApart, checkFiles, lazyBuiltins, vendor],
    ...compiledWhole,
    // import() of a CommonJS file becomes require(): from a code-cached script, import() fails.
    supported: { 'dynamic-import': false },
    metafile: true,
  });
  // With import() lowered to require(), an ES-module-only package would fail to load on Node
  // before 20.19: those go through importPackage.
  const esmOnly = [
    ...new Set(Object.values(cli.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path))),
  ].filter((name) => !name.startsWith('.') && !name.startsWith('node:') && !isBuiltin(name) && isEsmOnly(name));
  if (esmOnly.length > 0) throw new Error(`build: load ${esmOnly.join(', ')} with importPackage (src/cli/iostreams/import-package.ts): they are ES modules only`);
  for (const file of new Set([...vendorSpecifiers].map(vendorFile))) {
    const specifiers = [...vendorSpecifiers].filter((name) => vendorFile(name) === file).sort();
    const loaders = specifiers.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(name)}),`);
    await build({
      ...common,
      stdin: { contents: `const loaders = {\n${loaders.join('\n')}\n};\nmodule.exports = (name) => loaders[name]();\n`, resolveDir: '.', sourcefile: file.replace(/\.cjs$/, '.js') },
      outfile: new URL(file, staging).pathname,
      plugins: [binFiles, lazyHttp2, sourceEdits],
      ...compiledWhole,
    });
  }
  await build({
    ...common,
    entryPoints: [APART.embedded],
    outfile: new URL('embedded.cjs', staging).pathname,
    plugins: [binFiles, lazyFastify],
    ...compiledWhole,
  });
  await build({
    ...common,
    stdin: { contents: "module.exports = require('fastify');", resolveDir: '.', sourcefile: 'vendor-fastify.js' },
    outfile: new URL('vendor-fastify.cjs', staging).pathname,
    external: external.filter((name) => name !== 'fastify'),
    ...compiledWhole,
  });
  await build({ ...common, entryPoints: [APART['import-package']], outfile: new URL('import-package.cjs', staging).pathname });
  for (const name of CHECKS) {
    await build({
      ...common,
      stdin: { contents: `export { ${name} } from './${CHECKS_SOURCE}';`, resolveDir: '.', sourcefile: `checks-${name}.js` },
      outfile: new URL(`checks-${name}.cjs`, staging).pathname,
      ...compiledWhole,
    });
  }
  await buildBrowserPages(staging);
  nameTheBuild(staging);
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}
const old = new URL(`../.dist-old-${process.pid}`, import.meta.url);
try {
  renameSync(new URL('../dist', import.meta.url), old);
} catch {
  // no previous build
}
renameSync(staging, new URL('../dist', import.meta.url));
rmSync(old, { recursive: true, force: true });
const reportctl = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
// The man pages, one per command, from the built command tree (scripts/pack.mjs lists them as `man`).
// No code cache: the build's Node is seldom the one that runs the package.
execFileSync(process.execPath, [reportctl, 'help', 'reference', '--man', fileURLToPath(new URL('../dist/man', import.meta.url))], {
  stdio: 'inherit',
  env: { ...process.env, REPORTCTL_NO_CACHE: '1' },
});

/**
 * The build's id, in place of PENDING_ID on each wrapped file's first line: a hash of those files,
 * so the code caches of one build are used by that build only, and the same build again finds them.
 */
function nameTheBuild(folder) {
  const pending = `${WRAPPER_START}${PENDING_ID}\n`;
  const wrapped = readdirSync(folder)
    .filter((name) => name.endsWith('.cjs'))
    .sort()
    .map((name) => [new URL(name, folder), readFileSync(new URL(name, folder), 'utf8')])
    .filter(([, text]) => text.startsWith(pending));
  const hash = createHash('sha256');
  for (const [url, text] of wrapped) hash.update(`${url.pathname.split('/').pop()}\n${text.length}\n`).update(text);
  const id = hash.digest('hex').slice(0, 16);
  for (const [url, text] of wrapped) writeFileSync(url, `${WRAPPER_START}${id}\n${text.slice(pending.length)}`);
}
