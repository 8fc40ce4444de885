import { compiledFrom } from './shared.mjs';

/** The client's generated checks (one module, scripts/response-checks.mjs), and their names. */
export const CHECKS_SOURCE = 'src/client/generated/response-checks.js';
export const CHECKS = Object.keys(await import(`../../${CHECKS_SOURCE}`));
/**
 * Each generated check is a file of its own, dist/checks-<name>.cjs with its code cache (the
 * check and the functions it calls, the rest of the module shaken out), read on its first call
 * (src/client/response-validation.ts): `templates get` reads the template's check, some 30 KB,
 * not all twelve, and offline commands none.
 */
export const checkFiles = {
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
