import { readFileSync } from 'node:fs';

/** undici's parsers compiled with Liftoff only (bin/liftoff-only.js). */
const compileParser = (bytes) => `require('../bin/liftoff-only.js').compileLiftoffOnly(${bytes})`;
/**
 * Edits to packages' sources, by file under node_modules. Each must match exactly once: an
 * update that moves the code fails the build instead of silently undoing the edit.
 */
const SOURCE_EDITS = {
  // undici's HTTP parsers, compiled with Liftoff only (see bin/liftoff-only.js for why).
  'undici/lib/dispatcher/client-h1.js': [
    ["new WebAssembly.Module(require('../llhttp/llhttp_simd-wasm.js'))", compileParser("require('../llhttp/llhttp_simd-wasm.js')")],
    ["new WebAssembly.Module(llhttpWasmData || require('../llhttp/llhttp-wasm.js'))", compileParser("llhttpWasmData || require('../llhttp/llhttp-wasm.js')")],
  ],
};
export const sourceEdits = {
  name: 'source-edits',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: new RegExp(`/node_modules/(${Object.keys(SOURCE_EDITS).join('|').replaceAll('.', '\\.')})$`) }, (args) => {
      const edits = SOURCE_EDITS[args.path.slice(args.path.lastIndexOf('/node_modules/') + '/node_modules/'.length)];
      let source = readFileSync(args.path, 'utf8');
      for (const [from, to] of edits) {
        const matches = typeof from === 'string' ? source.split(from).length - 1 : (source.match(new RegExp(from, 'g')) ?? []).length;
        if (matches !== 1) throw new Error(`build: ${args.path} has ${matches} matches of ${from} (scripts/build/source-edits.mjs, SOURCE_EDITS)`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
