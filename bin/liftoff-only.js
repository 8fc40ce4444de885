// undici's edited client-h1.js compiles its HTTP parser through here (scripts/build/source-edits.mjs). V8's
// defaults would also optimise the WebAssembly in the background (CPU a parser that reads a few
// answers never pays back; docs/performance.md): compiled whole with Liftoff only instead, and V8's defaults
// back before anything else compiles, since V8 takes a code cache (the build's, Node's own for
// its builtins) only under the flags it was made with. The module keeps the tiering it was
// compiled under: without dynamic tiering then, Node 24's V8 does not optimise the parser's
// busiest function later either (40 ms of CPU in the background for `catalogs report-types`).
'use strict';

const LIFTOFF_ONLY = '--liftoff-only --no-wasm-lazy-compilation --no-wasm-dynamic-tiering --no-wasm-tier-up';
const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering --wasm-lazy-compilation';

/**
 * A WebAssembly.Module of `bytes`, compiled now, with Liftoff only. Called at a network command's
 * first connection: its modules are loaded, and its busy part (reading answers) is ahead, so
 * Node 24's background JIT compilers go off here (bin/code-cache.js, turnTiersOff).
 */
function compileLiftoffOnly(bytes) {
  const v8 = require('node:v8');
  v8.setFlagsFromString(LIFTOFF_ONLY);
  try {
    return new WebAssembly.Module(bytes);
  } finally {
    v8.setFlagsFromString(DEFAULTS);
    require('./code-cache.js').turnTiersOff();
  }
}

module.exports = { compileLiftoffOnly };
