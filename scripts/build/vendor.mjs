import { compiledFrom } from './shared.mjs';

/** The client's packages, each bundled into dist/vendor-<package>.cjs. */
export const VENDORED = ['undici', 'zod', 'cli-table3'];
/**
 * The CLI's imports of the vendored packages become calls into dist/vendor-<package>.cjs, which
 * loads each on first use: `import { z } from 'zod'` runs zod's module body only when a module
 * that needs it runs. The specifiers seen are what the vendor files are built to hold.
 */
export const vendorSpecifiers = new Set();
export const vendorFile = (specifier) => `vendor-${VENDORED.find((name) => specifier === name || specifier.startsWith(`${name}/`))}.cjs`;
const VENDOR_IMPORT = new RegExp(`^(${VENDORED.join('|')})(/.*)?$`);
export const vendor = {
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
