import { compiledFrom, standIns } from './shared.mjs';

/**
 * Files of their own, beside the CLI's: the embedded service (src/embedded.ts) and the one
 * import() of ESM-only packages (src/cli/iostreams/import-package.ts; see there why). The client's
 * generated checks are files apart too, one per check (see checkFiles).
 */
export const APART = { embedded: 'src/embedded.ts', 'import-package': 'src/cli/iostreams/import-package.ts' };
const apart = Object.keys(APART);
/** Compiled from the build's V8 cache by bin/code-cache.js: import-package must be a plain require (see there). */
const cached = new Set(['embedded']);
/** The functions each file apart that is not cached exports (each called through a stand-in). */
const APART_EXPORTS = { 'import-package': ['importPackage', 'jqWebFile'] };
export const keepApart = {
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
