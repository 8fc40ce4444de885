// Loads one of the build's CommonJS files (dist/main.cjs, dist/vendor-*.cjs, ...) compiled from
// the V8 code cache the build leaves beside it (`<file>.cache`): compiling them is most of a
// short command's start-up. Each file is one function expression, Node's module wrapper with the
// build's id on its first line, so V8 compiles the text as read (no second copy joined to a
// wrapper). A cache is used only when it names the same build; V8 itself refuses one made by
// another Node version or under other flags. Without a usable cache the text is compiled alone.
//
// REPORTCTL_WRITE_CODE_CACHE (set by scripts/build.mjs only) names the files to compile without
// a cache and to write a cache for at exit, after a run that used them.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// The loader's own class: require('node:module') would also load the ES module loader.
const Module = module.constructor;

const writing = new Set((process.env.REPORTCTL_WRITE_CODE_CACHE ?? '').split(',').filter(Boolean));

function readOrNull(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch {
    return null;
  }
}

/** How the build begins each file it wraps (scripts/build.mjs); the build's id and a newline follow. */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { // build ';

/** The build id on a wrapped file's first line, or null for any other file. */
function buildIdOf(source) {
  if (!source.startsWith(WRAPPER_START)) return null;
  const line = source.slice(WRAPPER_START.length, WRAPPER_START.length + 17);
  return /^[0-9a-f]{16}\n$/.test(line) ? line.slice(0, 16) : null;
}

const loadedFiles = new Map();

/**
 * The exports of `file`, from its code cache where that is this build's; once per process.
 * `kind` names one of several caches of the same file, each made by a different command.
 */
function loadCompiled(file, parent, kind) {
  if (!loadedFiles.has(file)) loadedFiles.set(file, compile(file, parent, kind)());
  return loadedFiles.get(file);
}

function compile(file, parent, kind) {
  const cacheFile = kind ? `${file}.${kind}.cache` : `${file}.cache`;
  const write = writing.has(path.basename(file));
  const source = readOrNull(file, 'utf8');
  const build = source === null ? null : buildIdOf(source);
  // Not one of the build's wrapped files (or none at all): Node's loader says what is wrong.
  if (build === null) return () => require(file);
  const cache = write ? null : readOrNull(cacheFile);
  const cached = cache !== null && cache.length > 17 && cache.toString('latin1', 0, 17) === `${build}\n`;

  const vm = require('node:vm');
  const script = new vm.Script(source, {
    filename: file,
    ...(cached ? { cachedData: cache.subarray(17) } : {}),
  });
  if (write) {
    process.on('exit', () => {
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${build}\n`, 'latin1'), script.createCachedData()]));
        fs.renameSync(temporary, cacheFile);
      } catch (error) {
        // Only start-up time is lost; the build says so.
        fs.rmSync(temporary, { force: true });
        process.stderr.write(`no code cache written: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
  }
  return () => {
    const loaded = new Module(file, parent);
    loaded.filename = file;
    script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
    loaded.loaded = true;
    return loaded.exports;
  };
}

module.exports = { loadCompiled, WRAPPER_START };
