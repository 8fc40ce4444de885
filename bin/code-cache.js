// Loads one of the build's CommonJS files (dist/main.cjs, dist/vendor-*.cjs) compiled from the
// V8 code cache the build leaves beside it (`<file>.cache`). Most of a short command's
// start-up is V8 compiling those files. A cache is used only when it names this very build
// (the file's first line is `// build <id>`, the cache's too); V8 itself refuses one made by
// another Node version. Without a usable cache this is a plain require.
//
// Set by scripts/build.mjs only: REPORTCTL_WRITE_CODE_CACHE names the files (by base name) to
// compile without a cache and to write a cache for at exit, after a run that used them.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const writing = new Set((process.env.REPORTCTL_WRITE_CODE_CACHE ?? '').split(',').filter(Boolean));

function readOrNull(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch {
    return null;
  }
}

const loadedFiles = new Map();

/**
 * The exports of `file`, from its code cache where that is this build's; once per process.
 * `kind` names one of several caches of the same file, each made by a different command.
 */
function loadCompiled(file, parent, kind) {
  if (!loadedFiles.has(file)) loadedFiles.set(file, compile(file, parent, kind));
  return loadedFiles.get(file);
}

function compile(file, parent, kind) {
  const cacheFile = kind ? `${file}.${kind}.cache` : `${file}.cache`;
  const write = writing.has(path.basename(file));
  const source = readOrNull(file, 'utf8');
  const build = source === null ? null : /^\/\/ build ([0-9a-f]{16})\n/.exec(source);
  const cache = build === null || write ? null : readOrNull(cacheFile);
  const cached = cache !== null && cache.length > 17 && cache.toString('latin1', 0, 17) === `${build[1]}\n`;
  if (build === null || (!write && !cached)) return require(file);

  const vm = require('node:vm');
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cached ? { cachedData: cache.subarray(17) } : {}),
  });
  if (write) {
    process.on('exit', () => {
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        // V8 stamps a cache with its flags, and takes it only under the same. A file is
        // compiled under the defaults, but the bundle turns WebAssembly tier-up and lazy
        // compilation off before undici's first HTTP parser (scripts/build.mjs): back to the
        // defaults to write.
        require('node:v8').setFlagsFromString('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering --wasm-lazy-compilation');
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
  const loaded = new Module(file, parent);
  loaded.filename = file;
  script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  return loaded.exports;
}

module.exports = { loadCompiled };
