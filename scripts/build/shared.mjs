// What several of the build's plugins write into the CLI's bundle.

/** A module of the CLI's bundle that stands for `file` in dist/, loaded through bin/code-cache.js. */
export const compiledFrom = (file) => `require('../bin/code-cache.js').loadCompiled(require('node:path').join(__dirname, ${JSON.stringify(file)}))`;
/** ES stand-ins for `names`, each calling the function of that name on `load()`'s result (an expression). */
export const standIns = (load, names) => names.map((name) => `export function ${name}(...args) { return ${load}.${name}(...args); }`);
