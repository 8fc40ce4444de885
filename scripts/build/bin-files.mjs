import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/', import.meta.url));

/**
 * The bin's own helpers (bin/code-cache.js, bin/liftoff-only.js) stay files of their own, one
 * copy each in a process: a bundle in dist/ requires them as ../bin/<file>, from wherever in src/
 * (or a package's edited source) the import was written.
 */
export const binFiles = {
  name: 'bin-files',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(\.\.\/)+bin\/[\w-]+\.js$/ }, (args) => {
      if (!args.path.startsWith('../bin/') && resolve(args.resolveDir, args.path) !== resolve(BIN, basename(args.path))) return undefined;
      return { path: `../bin/${basename(args.path)}`, external: true };
    });
  },
};
