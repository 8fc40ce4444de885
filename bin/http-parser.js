// undici parses HTTP with llhttp, a WebAssembly module that V8 compiles when the first
// connection opens: some 8 ms on the main thread of a network command, and more page faults
// than anything else it does. A network command starts that compile as it begins, on one of
// V8's background threads, while the main thread reads and runs the CLI; its first request
// waits for the compile to end (`parserReady`, given to the CLI's main) and undici takes the
// module (scripts/build.mjs, SOURCE_EDITS).
//
// V8 compiles a module in the background in steps, some of which run on the main thread at a
// turn of the event loop: the first of those settles how (all functions now, with Liftoff
// only, on one thread beside the main one, as the bundle's own compile would), so the flags
// that say so are set for that one turn only (`whenParserCompileStarts`) and then put back: V8
// takes a code cache (ours, Node's own for its builtins) only under the flags it was made with.
// Should V8 not have decoded the module by that turn (a machine short of CPU), the compile
// goes on under V8's defaults, as it would in any Node program.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// Eager, Liftoff only (tiering up would spend some 100 ms of CPU and 35 MB on a parser used for
// a few answers), one compile thread: the main thread keeps the other core.
const COMPILE_FLAGS = '--liftoff-only --no-wasm-lazy-compilation --wasm-num-compilation-tasks=1';
// Where undici compiles its parser itself, as its first connection opens: eager and Liftoff
// only too, with every compile thread helping, and kept (its builtins are loaded by then).
const OWN_COMPILE_FLAGS = '--liftoff-only --no-wasm-lazy-compilation';
// V8's defaults for those flags and for those --liftoff-only turns off.
const DEFAULT_FLAGS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering --wasm-lazy-compilation --wasm-num-compilation-tasks=128';

let compiled;
let ready;

/**
 * Begins compiling the SIMD parser in dist/ (the one undici takes first). Not where undici
 * would not use SIMD, or the file cannot be read: undici then compiles its own.
 */
function startParserCompile(distDir) {
  // No WebAssembly at all (node --jitless): undici says so at its first connection.
  if (typeof WebAssembly === 'undefined' || process.env.UNDICI_NO_WASM_SIMD === '1' || process.arch === 'ppc64') return;
  let bytes;
  try {
    bytes = fs.readFileSync(path.join(distDir, 'llhttp_simd.wasm'));
  } catch {
    return; // undici reads it again, and says what is wrong
  }
  // V8 ends the compile in tasks Node's event loop does not wait for: a command whose only
  // pending work is this compile (its first request waits for it) would see Node exit, with
  // code 0 and nothing done, so a timer holds the loop open until the compile settles.
  const hold = setTimeout(() => {}, 2 ** 31 - 1);
  ready = WebAssembly.compile(bytes)
    .then(
      (module) => {
        compiled = module;
      },
      // A machine without WebAssembly SIMD: undici falls back to its other parser.
      () => undefined,
    )
    .finally(() => clearTimeout(hold));
}

/**
 * Runs `run` at the next turn of the event loop, when V8 sets the compile going (its source
 * read and decoded on a background thread by then), under COMPILE_FLAGS for that turn only;
 * at once when no compile began.
 */
function whenParserCompileStarts(run) {
  if (ready === undefined) return run();
  const v8 = require('node:v8');
  v8.setFlagsFromString(COMPILE_FLAGS);
  setImmediate(() => {
    v8.setFlagsFromString(DEFAULT_FLAGS);
    run();
  });
}

/** Called by undici's edited client-h1.js before its first parser: the flags, where it compiles one itself. */
function beforeFirstParser() {
  if (compiled === undefined) require('node:v8').setFlagsFromString(OWN_COMPILE_FLAGS);
}

module.exports = {
  DEFAULT_FLAGS,
  beforeFirstParser,
  startParserCompile,
  whenParserCompileStarts,
  /** The parser compiled in the background, once it is (for undici's first connection). */
  compiledParser: () => compiled,
  /** Settles when the background compile has ended; undefined when none began. */
  parserReady: () => ready,
};
