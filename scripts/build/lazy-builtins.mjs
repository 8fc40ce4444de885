import { standIns } from './shared.mjs';

/**
 * Builtins that are heavy to load (child_process pulls in net and streams) but only needed by
 * a few commands: each becomes a module of stand-in functions that load the real one on first
 * call. commander requires child_process at load time for a feature this CLI never uses.
 * Only functions are forwarded, and not classes: importing anything else fails the build.
 */
const LAZY_BUILTINS = /^(node:)?(child_process|fs\/promises)$/;
export const lazyBuiltins = {
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
