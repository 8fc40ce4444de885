// Loads one of the build's CommonJS files (dist/main.cjs, dist/vendor-*.cjs, ...) compiled from a
// V8 code cache: compiling them is most of a short command's start-up. V8 takes a cache only
// from the same V8 under the same flags, so each Node makes its own, in the user's cache folder:
// the first run that loads a file without a usable cache writes one at exit (a temporary file,
// then renamed), in a folder named by the build, the Node and its flags. A folder that cannot be
// written costs nothing but the cache; REPORTCTL_NO_CACHE=1 turns caching off.
//
// Each file is one function expression, Node's module wrapper with the build's id (a hash of the
// build's files) on its first line, so V8 compiles the text as read (no second copy joined to a
// wrapper).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// The loader's own class: require('node:module') would also load the ES module loader.
const Module = module.constructor;

/** How the build begins each file it wraps (scripts/build.mjs); the build's id and a newline follow. */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { // build ';
/** Builds × Nodes that keep their caches: making one more removes the oldest past this. */
const KEPT = 4;
const KEY = /^[0-9a-f]{16}-v\d+\.\d+\.\d+-[0-9a-f]{8}$/;

function readOrNull(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch {
    return null;
  }
}

/** The build id on a wrapped file's first line, or null for any other file. */
function buildIdOf(source) {
  if (!source.startsWith(WRAPPER_START)) return null;
  const line = source.slice(WRAPPER_START.length, WRAPPER_START.length + 17);
  return /^[0-9a-f]{16}\n$/.test(line) ? line.slice(0, 16) : null;
}

/** reportctl's folder in the user's cache, as each platform names it (REPORTCTL_CACHE_DIR first); null without a home. */
function userCacheFolder(env = process.env, platform = process.platform) {
  if (env.REPORTCTL_CACHE_DIR) return path.resolve(env.REPORTCTL_CACHE_DIR);
  let home = env.HOME;
  try {
    home ||= require('node:os').homedir();
  } catch {
    return null;
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'reportctl');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'reportctl', 'Cache');
  // A relative XDG_CACHE_HOME is to be ignored (XDG Base Directory spec).
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(xdg, 'reportctl');
}

/** 32-bit FNV-1a, in hex: a short name for the flags (node:crypto would cost more than the rest). */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * The folder of `build`'s caches for this Node, or null when caching is off. Everything V8
 * checks a cache against is in its name: V8's version, the CPU and the flags Node was given.
 */
function cacheFolderOf(build) {
  const env = process.env;
  if (env.REPORTCTL_NO_CACHE === '1') return null;
  const flags = [process.versions.v8, process.arch, ...process.execArgv, env.NODE_OPTIONS ?? ''].join('\n');
  const folder = userCacheFolder();
  return folder === null ? null : path.join(folder, 'code', `${build}-v${process.versions.node}-${fnv1a(flags)}`);
}

/**
 * Whether caches may be read from `folder`: V8 runs what a cache holds, so only from a folder of
 * this user's that no one else can write to (one that does not exist yet is made so at exit).
 */
function trusted(folder) {
  let stats;
  try {
    stats = fs.statSync(folder);
  } catch (error) {
    return error.code === 'ENOENT';
  }
  if (process.platform === 'win32') return stats.isDirectory();
  return stats.isDirectory() && stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** Scripts compiled without a cache V8 took, and where each one's cache goes: written at exit. */
const unsaved = [];

function saveAtExit(script, folder, cacheFile) {
  if (unsaved.length === 0) process.once('exit', saveCaches);
  unsaved.push({ script, folder, cacheFile, tiersOff });
}

/**
 * Node 24 turned on V8's background Maglev and Sparkplug compilers: a background compile that
 * waits for a garbage collection while process.exit joins V8's threads deadlocks the exit, and a
 * finished command never ends, not even on SIGTERM (nodejs/node#54918). They are turned off
 * once a command has loaded what it needs and before its work gets busy (turnTiersOff): changing
 * V8's flags makes Node compile every built-in module it loads afterwards without its own code
 * cache (some 8 ms of a command's start when done first). Node 20 and 22 have both off.
 */
const TIERS_MATTER = Number(process.versions.node.split('.')[0]) >= 23;
const TIERS_OFF = '--no-maglev --no-concurrent-sparkplug';
const TIERS_ON = '--maglev --concurrent-sparkplug';
let tiersOff = false;

/** Turns Node 24's background JIT compilers off for the rest of the process (see TIERS_MATTER). */
function turnTiersOff() {
  if (!TIERS_MATTER || tiersOff) return;
  require('node:v8').setFlagsFromString(TIERS_OFF);
  tiersOff = true;
}

/** Runs `make` under the JIT tiers a script was compiled under: V8 takes a cache only under the flags it was made with. */
function underTiers(off, make) {
  if (off === tiersOff) return make();
  const v8 = require('node:v8');
  v8.setFlagsFromString(off ? TIERS_OFF : TIERS_ON);
  try {
    return make();
  } finally {
    v8.setFlagsFromString(tiersOff ? TIERS_OFF : TIERS_ON);
  }
}

function saveCaches() {
  if (unsaved.length === 0) return;
  const { folder } = unsaved[0];
  let made;
  try {
    made = fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  for (const { script, cacheFile, tiersOff: compiledOff } of unsaved) {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    let fd;
    try {
      // Opened before V8 serialises anything: a folder that refuses the file costs one call.
      fd = fs.openSync(temporary, 'wx', 0o600);
    } catch {
      return;
    }
    try {
      fs.writeFileSync(fd, underTiers(compiledOff, () => script.createCachedData()));
      fs.closeSync(fd);
      fd = undefined;
      fs.renameSync(temporary, cacheFile);
    } catch {
      if (fd !== undefined) fs.closeSync(fd);
      fs.rmSync(temporary, { force: true });
    }
  }
  unsaved.length = 0;
  if (made !== undefined) prune(path.dirname(folder), path.basename(folder));
}

/**
 * Ends the process with `code`, its caches written first. On Node 24 the background JIT
 * compilers are turned off (where the command did not already) and one turn of the event loop
 * lets compiles under way finish (a collection they wait for runs in it) before process.exit.
 */
function endProcess(code) {
  saveCaches();
  if (!TIERS_MATTER) process.exit(code);
  const wasOff = tiersOff;
  turnTiersOff();
  if (wasOff) process.exit(code);
  setImmediate(() => process.exit(code));
}

/** Keeps the KEPT most recently made cache folders (`keep`, just made, among them). */
function prune(parent, keep) {
  try {
    const others = fs
      .readdirSync(parent)
      .filter((name) => name !== keep && KEY.test(name))
      .map((name) => ({ name, madeAt: fs.statSync(path.join(parent, name)).mtimeMs }))
      .sort((a, b) => b.madeAt - a.madeAt);
    for (const { name } of others.slice(KEPT - 1)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  } catch {
    // Another run pruned first, or the folder cannot be read: the next new folder tries again.
  }
}

const loadedFiles = new Map();

/**
 * The exports of `file`, from its code cache where there is a usable one; once per process.
 * `kind` names one of several caches of the same file, each made by a different command.
 */
function loadCompiled(file, parent, kind) {
  if (!loadedFiles.has(file)) loadedFiles.set(file, compile(file, parent, kind)());
  return loadedFiles.get(file);
}

/** The build whose files this process loaded first: the key of caches of other code it compiles. */
let firstBuild = null;

/** A script of `source` (named `file`), from `cacheName`'s cache in the folder of `build`'s caches where there is a usable one. */
function scriptOf(source, file, build, cacheName) {
  let folder = cacheFolderOf(build);
  if (folder !== null && !trusted(folder)) folder = null;
  const cacheFile = folder === null ? null : path.join(folder, `${cacheName}.cache`);
  const cache = cacheFile === null ? null : readOrNull(cacheFile);
  const vm = require('node:vm');
  const script = new vm.Script(source, { filename: file, ...(cache === null ? {} : { cachedData: cache }) });
  // V8 refuses a cache of another V8, of other flags or of another source length.
  if (cacheFile !== null && (cache === null || script.cachedDataRejected)) saveAtExit(script, folder, cacheFile);
  return script;
}

/** The folder of the caches of the build this process loaded first, where it may be used; else null. */
function firstBuildFolder() {
  const folder = firstBuild === null ? null : cacheFolderOf(firstBuild);
  return folder !== null && trusted(folder) ? folder : null;
}

/** Text kept beside the build's caches as `name` (something derived from the build alone), or null. */
function keptText(name) {
  const folder = firstBuildFolder();
  return folder === null ? null : readOrNull(path.join(folder, name), 'utf8');
}

/** Keeps `text` as `name` beside the build's caches, whole or not at all; a folder that refuses it costs nothing else. */
function keepText(name, text) {
  const folder = firstBuildFolder();
  if (folder === null) return;
  const temporary = path.join(folder, `${name}.${process.pid}.tmp`);
  try {
    const made = fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, path.join(folder, name));
    if (made !== undefined) prune(path.dirname(folder), path.basename(folder));
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * The value of `expression`, the text of a package file made into one expression (a function),
 * compiled from a cache kept beside the build's as `name`: code that loads on demand from
 * node_modules, not through Node's loader (jq-web's jq.js). Compiled without a cache where no
 * build was loaded (from src/ under the tests).
 */
function compileExpression(expression, file, name) {
  if (firstBuild === null) return require('node:vm').runInThisContext(expression, { filename: file });
  return scriptOf(expression, file, firstBuild, name).runInThisContext();
}

function compile(file, parent, kind) {
  const source = readOrNull(file, 'utf8');
  const build = source === null ? null : buildIdOf(source);
  // Not one of the build's wrapped files (or none at all): Node's loader says what is wrong.
  if (build === null) return () => require(file);
  firstBuild ??= build;
  const script = scriptOf(source, file, build, `${path.basename(file)}${kind ? `.${kind}` : ''}`);
  return () => {
    const loaded = new Module(file, parent);
    loaded.filename = file;
    script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
    loaded.loaded = true;
    return loaded.exports;
  };
}

module.exports = { compileExpression, endProcess, keepText, keptText, loadCompiled, turnTiersOff, userCacheFolder, WRAPPER_START };
