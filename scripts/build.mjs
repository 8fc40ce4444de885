// Bundles src/ into CommonJS: dist/main.cjs (the CLI), dist/vendor-<package>.cjs (the client's
// packages, one file each) and dist/embedded.cjs (serve, admin, with fastify), and the dashboard page serve
// hosts into dist/dashboard/. Other packages stay outside and load where a command needs them;
// esbuild runs each module's body on first use. CommonJS files start measurably faster than a
// tree of ES modules, and compiling a file is most of a short command's start-up, so the build
// leaves V8's code cache beside each of the three (`<file>.cache`, used through
// bin/code-cache.js). ESM-only packages (chalk, ora, conf, inquirer) are loaded with import()
// from a small file apart.
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const VENDORED = ['undici', 'zod', 'cli-table3'];
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
/**
 * Files of their own, beside the CLI's: the embedded service (src/embedded.ts) and the one
 * import() of ESM-only packages (src/cli/import-package.ts; see there why). The client's
 * generated checks are files apart too, one per check (see checkFiles).
 */
const APART = { embedded: 'src/embedded.ts', 'import-package': 'src/cli/import-package.ts' };
const apart = Object.keys(APART);
/** Compiled from the build's V8 cache by bin/code-cache.js: import-package must be a plain require (see there). */
const cached = new Set(['embedded']);
/** The functions each file apart that is not cached exports (each called through a stand-in). */
const APART_EXPORTS = { 'import-package': ['importPackage', 'requireJqWeb'] };
/**
 * The bin's own helpers (bin/code-cache.js, bin/liftoff-only.js) stay files of their own: a
 * bundle in dist/ requires them as ../bin/<file>, the same path as from src/.
 */
const binFiles = {
  name: 'bin-files',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/bin\/[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
/** A module of the CLI's bundle that stands for `file` in dist/, loaded through bin/code-cache.js. */
const compiledFrom = (file) => `require('../bin/code-cache.js').loadCompiled(require('node:path').join(__dirname, ${JSON.stringify(file)}))`;
/** ES stand-ins for `names`, each calling the function of that name on `load()`'s result (an expression). */
const standIns = (load, names) => names.map((name) => `export function ${name}(...args) { return ${load}.${name}(...args); }`);
const keepApart = {
  name: 'keep-apart',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`/(${apart.join('|')})\\.js$`) }, (args) => {
      const name = /([\w-]+)\.js$/.exec(args.path)[1];
      return { path: name, namespace: cached.has(name) ? 'compiled' : 'required' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'compiled' }, (args) => ({ contents: `module.exports = ${compiledFrom(`${args.path}.cjs`)};`, loader: 'js' }));
    // Required on the first call, not when a module that imports it runs: most commands never
    // import() an ESM-only package, and loading the file is a module resolution and a compile.
    pluginBuild.onLoad({ filter: /.*/, namespace: 'required' }, (args) => {
      const names = APART_EXPORTS[args.path];
      if (!names) throw new Error(`build: list what src/cli/${args.path}.ts exports in APART_EXPORTS`);
      // ES exports, so an import of a name not listed here fails the build.
      return { contents: standIns(`require('./${args.path}.cjs')`, names).join('\n'), loader: 'js' };
    });
    pluginBuild.onResolve({ filter: /^\.\/[\w-]+\.cjs$/ }, (args) => (args.namespace === 'required' ? { path: args.path, external: true } : undefined));
  },
};
/** The client's generated checks (one module, scripts/response-checks.mjs), and their names. */
const CHECKS_SOURCE = 'src/client/generated/response-checks.js';
const CHECKS = Object.keys(await import(`../${CHECKS_SOURCE}`));
/**
 * Each generated check is a file of its own, dist/checks-<name>.cjs with its code cache (the
 * check and the functions it calls, the rest of the module shaken out), read on its first call
 * (src/client/response-validation.ts): `templates get` reads the template's check, some 30 KB,
 * not all twelve, and offline commands none.
 */
const checkFiles = {
  name: 'check-files',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/generated\/response-checks\.js$/ }, () => ({ path: 'response-checks', namespace: 'check-files' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'check-files' }, () => ({
      contents: [
        'const loaded = {};',
        ...CHECKS.map((name) => `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => (loaded.${name} ??= ${compiledFrom(`checks-${name}.cjs`)}.${name}) });`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};
/**
 * Builtins that are heavy to load (child_process pulls in net and streams) but only needed by
 * a few commands: each becomes a module of stand-in functions that load the real one on first
 * call. commander requires child_process at load time for a feature this CLI never uses.
 * Only functions are forwarded, and not classes: importing anything else fails the build.
 */
const LAZY_BUILTINS = /^(node:)?(child_process|fs\/promises)$/;
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: LAZY_BUILTINS }, (args) =>
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-builtin' },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const real = await import(args.path);
      const names = Object.keys(real).filter((name) => name !== 'default' && typeof real[name] === 'function' && /^[a-z]\w*$/.test(name));
      const contents = [
        `let real;`,
        `const load = () => (real ??= require(${JSON.stringify(args.path)}));`,
        ...standIns('load()', names),
      ].join('\n');
      return { contents, loader: 'js', resolveDir: '.' };
    });
  },
};
/**
 * The CLI's imports of the vendored packages become calls into dist/vendor-<package>.cjs, which
 * loads each on first use: `import { z } from 'zod'` runs zod's module body only when a module
 * that needs it runs. The specifiers seen are what the vendor files are built to hold.
 */
const vendorSpecifiers = new Set();
const vendorFile = (specifier) => `vendor-${VENDORED.find((name) => specifier === name || specifier.startsWith(`${name}/`))}.cjs`;
const VENDOR_IMPORT = new RegExp(`^(${VENDORED.join('|')})(/.*)?$`);
const vendor = {
  name: 'vendor',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: VENDOR_IMPORT }, (args) => {
      vendorSpecifiers.add(args.path);
      return { path: args.path, namespace: 'vendor' };
    });
    // Through bin/code-cache.js, which compiles the vendor file from the build's V8 cache.
    pluginBuild.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      contents: `module.exports = ${compiledFrom(vendorFile(args.path))}(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
/** undici's parsers compiled with Liftoff only (bin/liftoff-only.js). */
const compileParser = (bytes) => `require('../bin/liftoff-only.js').compileLiftoffOnly(${bytes})`;
/**
 * Edits to packages' sources, by file under node_modules. Each must match exactly once: an
 * update that moves the code fails the build instead of silently undoing the edit.
 */
const SOURCE_EDITS = {
  // undici's HTTP parsers, compiled with Liftoff only (see bin/liftoff-only.js for why).
  'undici/lib/dispatcher/client-h1.js': [
    ["new WebAssembly.Module(require('../llhttp/llhttp_simd-wasm.js'))", compileParser("require('../llhttp/llhttp_simd-wasm.js')")],
    ["new WebAssembly.Module(llhttpWasmData || require('../llhttp/llhttp-wasm.js'))", compileParser("llhttpWasmData || require('../llhttp/llhttp-wasm.js')")],
  ],
};
const sourceEdits = {
  name: 'source-edits',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: new RegExp(`/node_modules/(${Object.keys(SOURCE_EDITS).join('|').replaceAll('.', '\\.')})$`) }, (args) => {
      const edits = SOURCE_EDITS[args.path.slice(args.path.lastIndexOf('/node_modules/') + '/node_modules/'.length)];
      let source = readFileSync(args.path, 'utf8');
      for (const [from, to] of edits) {
        const matches = typeof from === 'string' ? source.split(from).length - 1 : (source.match(new RegExp(from, 'g')) ?? []).length;
        if (matches !== 1) throw new Error(`build: ${args.path} has ${matches} matches of ${from} (scripts/build.mjs, SOURCE_EDITS)`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
/**
 * undici's HTTP/1 client requires its HTTP/2 one at load time, and that loads node:http2, the
 * costliest builtin a network command would load. The service speaks HTTP/1, so in the vendor
 * file client-h2.js loads on its first connection over HTTP/2 only.
 */
const lazyHttp2 = {
  name: 'lazy-undici-h2',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      args.namespace === 'file' && args.importer.endsWith('/node_modules/undici/lib/dispatcher/client.js')
        ? { path: join(dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: `let connectH2;\nmodule.exports = (...args) => (connectH2 ??= require(${JSON.stringify(args.path)}))(...args);`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
/**
 * fastify and its packages are bundled into a file of their own, dist/vendor-fastify.cjs (a
 * hundred files fewer for `serve` to load, covered by a code cache), which dist/embedded.cjs
 * loads on the first call of fastify's factory: `admin` commands, which share embedded.cjs,
 * never build the HTTP app, so they neither read nor run fastify's code (about half of what
 * the service's bundle would otherwise be). Only the factory is imported as a value
 * (src/server/app.ts); the build fails if anything else is.
 */
const lazyFastify = {
  name: 'lazy-fastify',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^fastify$/ }, (args) => ({ path: args.path, namespace: 'lazy-fastify' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-fastify' }, () => ({
      contents: `let real;\nexport default function fastify(...args) { return (real ??= ${compiledFrom('vendor-fastify.cjs')})(...args); }`,
      loader: 'js',
      resolveDir: '.',
    }));
  },
};
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
try {
  // The id ties dist/main.cjs.cache to this build (see bin/reportctl.js).
  const buildId = randomBytes(8).toString('hex');
  // Each file V8 compiles from a cache (bin/code-cache.js) is one function expression, the
  // wrapper Node's loader would add: compiled as it is read, with no second copy of the text.
  const compiledWhole = {
    banner: { js: `${require('../bin/code-cache.js').WRAPPER_START}${buildId}` },
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
  if (esmOnly.length > 0) throw new Error(`build: load ${esmOnly.join(', ')} with importPackage (src/cli/import-package.ts): they are ES modules only`);
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
  await buildDashboard(new URL('dashboard/', staging));
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

// V8's code caches, each from one run that uses the file (see bin/code-cache.js): the CLI's
// from `formula check` (the offline commands) and from `templates list` (the client's, kind
// `client`, see bin/reportctl.js), the service's from `serve`, the client packages' from
// `templates list` against a stand-in service. That first list gets a page of one template,
// which the client's generated check passes (no zod); zod's cache comes from a second list whose page
// the check refuses and zod's lenient schema accepts (a template without the optional
// fields). Optional: a failure here only costs start-up time, so it warns and the build stands.
const reportctl = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
// The man pages, one per command, from the built command tree (scripts/pack.mjs lists them as `man`).
execFileSync(process.execPath, [reportctl, 'help', 'reference', '--man', fileURLToPath(new URL('../dist/man', import.meta.url))], { stdio: 'inherit' });
await warmCodeCache('main.cjs', ['formula', 'check', 'NIR/(R+eps)']);
// serve, stopped once it listens: its cache then holds the store's code and fastify's start.
await warmCodeCache('embedded.cjs,vendor-fastify.cjs', ['serve', '--port', '0', '--db', ':memory:', '--json', '--no-access-log'], {}, { stopWhenListening: true });
const at = '2026-01-01T00:00:00.000Z';
const sparseTemplate = { id: 'build', userId: 'build', name: 'build', analysisType: 'counting', reportType: 'build', reportTypeId: 'build', reportCategory: 'general', selectedStatistics: [], createdAt: at, updatedAt: at };
const fullTemplate = { ...sparseTemplate, layouts: { portrait: { elements: [] } }, paperSize: 'a4', mapResolution: 300, margins: { top: 10, right: 10, bottom: 10, left: 10 } };
let page = { total: 1, page: 1, limit: 20, data: [fullTemplate] };
// The client's cache is of the path without zod: a page its check refuses would put zod's in.
const { templatePage } = await import(`../${CHECKS_SOURCE}`);
if (!templatePage(page) || templatePage({ ...page, data: [sparseTemplate] })) {
  throw new Error('build: the stand-in pages no longer pass (first) and fail (second) the generated check; update them in scripts/build.mjs');
}
const standIn = createServer((request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(page));
});
await new Promise((resolve) => standIn.listen(0, '127.0.0.1', resolve));
const configDir = mkdtempSync(join(tmpdir(), 'reportctl-build-'));
try {
  const list = ['templates', 'list', '--base-url', `http://127.0.0.1:${standIn.address().port}`, '--api-key', 'rctl_build'];
  await warmCodeCache(['main.cjs', 'checks-templatePage.cjs', ...VENDORED.filter((name) => name !== 'zod').map((name) => `vendor-${name}.cjs`)].join(','), list, { REPORTCTL_CONFIG_DIR: configDir });
  page = { total: 1, page: 1, limit: 20, data: [sparseTemplate] };
  await warmCodeCache('vendor-zod.cjs', list, { REPORTCTL_CONFIG_DIR: configDir });
} finally {
  standIn.close();
  rmSync(configDir, { recursive: true, force: true });
}
// The other checks' caches, each from one call of its check (V8 compiles a function whole on
// its first call): the template's with a template, the rest with anything.
const samples = { template: fullTemplate };
const others = CHECKS.filter((name) => name !== 'templatePage');
await warmCodeCache(others.map((name) => `checks-${name}.cjs`).join(','), [JSON.stringify(samples), ...others], {}, {
  // Under the bin's JIT flags, as every command runs: V8 refuses a cache made under others.
  script: `require(${JSON.stringify(fileURLToPath(new URL('../bin/jit-tiers.js', import.meta.url)))});
const { loadCompiled } = require(${JSON.stringify(fileURLToPath(new URL('../bin/code-cache.js', import.meta.url)))});
const [samples, ...names] = process.argv.slice(1);
for (const name of names) loadCompiled(require('node:path').join(${JSON.stringify(fileURLToPath(new URL('../dist/', import.meta.url)))}, 'checks-' + name + '.cjs'))[name](JSON.parse(samples)[name] ?? {});`,
});

async function warmCodeCache(file, args, env = {}, { stopWhenListening = false, script } = {}) {
  const child = spawn(process.execPath, script === undefined ? [reportctl, ...args] : ['-e', script, ...args], {
    env: { ...process.env, ...env, REPORTCTL_WRITE_CODE_CACHE: file },
    stdio: ['ignore', stopWhenListening ? 'pipe' : 'ignore', 'pipe'],
  });
  // Its first line on stdout says where it listens: SIGTERM then makes it exit cleanly.
  if (stopWhenListening) child.stdout.once('data', () => child.kill('SIGTERM'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const [status, error] = await new Promise((resolve) => {
    child.on('error', (failure) => resolve([null, failure]));
    child.on('close', (code) => resolve([code, null]));
  });
  if (status !== 0) console.warn(`build: no code cache for dist/${file} (${error?.message ?? stderr.trim()})`);
}

/**
 * The page `serve` answers at / (src/dashboard/): one browser bundle and one stylesheet, named
 * by content hash so they are cached for good, and index.html, which names them. Built for the
 * browser, so a node: import (or any Node-only package) in what the page uses fails the build.
 */
async function buildDashboard(outdir) {
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
  const page = readFileSync(new URL('../src/dashboard/index.html', import.meta.url), 'utf8')
    .replace('/dashboard/main.js', built('src/dashboard/main.ts'))
    .replace('/dashboard/style.css', built('src/dashboard/style.css'));
  writeFileSync(new URL('index.html', outdir), page);
}

function isEsmOnly(specifier) {
  // The package of a subpath import (`diff/lib/diff/array.js`, `@scope/name/sub`).
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const manifest = JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8'));
  const conditions = JSON.stringify(manifest.exports ?? {});
  return manifest.type === 'module' && !conditions.includes('"require"');
}
