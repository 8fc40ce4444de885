import { dirname, join } from 'node:path';

/**
 * undici's HTTP/1 client requires its HTTP/2 one at load time, and that loads node:http2, the
 * costliest builtin a network command would load. The service speaks HTTP/1, so in the vendor
 * file client-h2.js loads on its first connection over HTTP/2 only.
 */
export const lazyHttp2 = {
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
