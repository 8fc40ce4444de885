#!/usr/bin/env node
// CommonJS (see bin/package.json): the built CLI is one CommonJS file, the fastest to start.
//
// Most of a short command's start-up is V8 compiling that file, so the build leaves V8's code
// cache for it beside it (dist/main.cjs.cache, made by running `formula check` once). The
// cache is used only when it names this very build; V8 itself refuses one made by another
// Node version. Without a usable cache this is a plain require.
//
// On Node 24 and later, Node's own compile cache (module.enableCompileCache, on disk) also
// serves what its module loader compiles: the packages a command loads on demand, and
// dist/main.cjs on a plain require. Measured (bench/startup.mjs, and instruction counts), it
// makes `doctor` cheaper on Node 24 but dearer on Node 22, which is why 22 goes without;
// Node 20 has none. For dist/main.cjs the build's cache stays on every version: made after a
// real run, it holds more compiled code than Node's and starts faster.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const main = path.join(__dirname, '..', 'dist', 'main.cjs');
const cacheFile = `${main}.cache`;
// Set by scripts/build.mjs only: compile without a cache and write one at exit.
const writing = process.env.REPORTCTL_WRITE_CODE_CACHE === '1';
// Off, and silent, where NODE_DISABLE_COMPILE_CACHE is set or its folder cannot be written.
if (!writing && Number(process.versions.node.split('.')[0]) >= 24) Module.enableCompileCache?.();

function readOrNull(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch {
    return null;
  }
}

const source = readOrNull(main, 'utf8');
// The first line of the build is `// build <id>`; the cache starts with the same id.
const build = source === null ? null : /^\/\/ build ([0-9a-f]{16})\n/.exec(source);
const cache = build === null || writing ? null : readOrNull(cacheFile);
const cached = cache !== null && cache.length > 17 && cache.toString('latin1', 0, 17) === `${build[1]}\n`;

if (build === null || (!writing && !cached)) {
  require(main);
} else {
  const vm = require('node:vm');
  const script = new vm.Script(Module.wrap(source), {
    filename: main,
    ...(cached ? { cachedData: cache.subarray(17) } : {}),
  });
  if (writing) {
    process.on('exit', () => {
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${build[1]}\n`, 'latin1'), script.createCachedData()]));
        fs.renameSync(temporary, cacheFile);
      } catch (error) {
        // Only start-up time is lost; the build says so.
        fs.rmSync(temporary, { force: true });
        process.stderr.write(`no code cache written: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
  }
  const loaded = new Module(main, module);
  loaded.filename = main;
  script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(main), loaded, main, path.dirname(main));
}
