/**
 * The bin's own helpers (bin/code-cache.js, bin/liftoff-only.js) stay files of their own: a
 * bundle in dist/ requires them as ../bin/<file>, the same path as from src/.
 */
export const binFiles = {
  name: 'bin-files',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/bin\/[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
