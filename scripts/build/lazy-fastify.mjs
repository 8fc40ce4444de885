import { compiledFrom } from './shared.mjs';

/**
 * fastify and its packages are bundled into a file of their own, dist/vendor-fastify.cjs (a
 * hundred files fewer for `serve` to load, covered by a code cache), which dist/embedded.cjs
 * loads on the first call of fastify's factory: `admin` commands, which share embedded.cjs,
 * never build the HTTP app, so they neither read nor run fastify's code (about half of what
 * the service's bundle would otherwise be). Only the factory is imported as a value
 * (src/server/app.ts); the build fails if anything else is.
 */
export const lazyFastify = {
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
