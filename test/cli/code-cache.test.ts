// Across verbs: every command compiles the CLI from a V8 code cache its Node made, kept in the
// user's cache folder; caches are keyed, pruned, written whole, and never needed to work.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { buildProgram } from '../../src/cli/program.js';
import { testDeps } from '../helpers/test-deps.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { userCacheFolder } = createRequire(import.meta.url)('../../bin/code-cache.js') as {
  userCacheFolder(env: Record<string, string | undefined>, platform: string): string | null;
};

/** A copy of the installed package (bin, dist, and the packages it loads), readable by anyone. */
function install(): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * Loaded before the bin (`node -r`): writes to a file what V8 did with each cache the bin
 * offered it, and each cache the bin made. Appended as it happens: the bin writes at exit.
 */
const PROBE = `
const fs = require('node:fs');
const vm = require('node:vm');
const log = (entry) => fs.appendFileSync(process.env.PROBE_LOG, JSON.stringify(entry) + '\\n');
const Script = vm.Script;
vm.Script = function (source, options) {
  const script = new Script(source, options);
  log({ compiled: require('node:path').basename(options.filename), cache: options.cachedData !== undefined, rejected: script.cachedDataRejected === true });
  return script;
};
const createCachedData = Script.prototype.createCachedData;
Script.prototype.createCachedData = function () { log({ made: true }); return createCachedData.call(this); };
if (process.env.PROBE_FILES) {
  const name = (file) => require('node:path').basename(String(file)).replace(/\\.\\d+\\.tmp$/, '.PID.tmp');
  for (const call of ['openSync', 'renameSync']) {
    const original = fs[call];
    fs[call] = function (...args) {
      if (String(args[0]).includes('.cache')) log({ [call]: call === 'openSync' ? [name(args[0]), args[1]] : [name(args[0]), name(args[1])] });
      return original.apply(this, args);
    };
  }
}
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the probe saw, in order. */
  seen: Array<{ compiled?: string; cache?: boolean; rejected?: boolean; made?: boolean; openSync?: string[]; renameSync?: string[] }>;
}

const FORMULA = ['formula', 'check', 'NIR/(R+eps)'];

let probeFile: string | undefined;
/** The probe, at one path for the whole file: Node's flags (`-r` and its path) are part of a cache's key. */
function probe(): string {
  if (probeFile === undefined) {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    probeFile = join(dir, 'probe.cjs');
    writeFileSync(probeFile, PROBE);
  }
  return probeFile;
}

let nodeForOthers: string | undefined;
/**
 * A Node another user can run: this one, unless it sits in a folder only its owner may enter
 * (CI's Node 22 and 24 are unpacked into a private temporary folder); then a copy of it.
 */
function nodeFor(options: { uid?: number; gid?: number }): string {
  if (options.uid === undefined) return process.execPath;
  if (nodeForOthers === undefined) {
    const tried = spawnSync(process.execPath, ['-e', '0'], { ...options, cwd: '/', timeout: 30_000 });
    if (tried.status === 0) nodeForOthers = process.execPath;
    else {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      nodeForOthers = join(dir, 'node');
      cpSync(process.execPath, nodeForOthers);
      chmodSync(nodeForOthers, 0o755);
    }
  }
  return nodeForOthers;
}

/** The bin in `dir` run as a user runs it, under the probe; `env` on top of a clean environment. */
function run(dir: string, args: string[], env: Record<string, string | undefined>, options: { uid?: number; gid?: number } = {}): Run {
  const work = tempDir();
  chmodSync(work, 0o777);
  const log = join(work, 'probe.log');
  const result = spawnSync(nodeFor(options), ['-r', probe(), join(dir, 'bin', 'reportctl.js'), ...args], {
    encoding: 'utf8',
    env: cleanEnv({ PROBE_LOG: log, ...env }),
    cwd: options.uid === undefined ? work : '/',
    timeout: 30_000,
    ...options,
  });
  const seen = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run['seen'][number]) : [];
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, seen };
}

const buildOf = (dir: string) => /^\(function \(exports, require, module, __filename, __dirname\) \{ \/\/ build ([0-9a-f]{16})\n/.exec(readFileSync(join(dir, 'dist', 'main.cjs'), 'utf8'))![1]!;
/** The folder of the build's caches under `cache` (one per build × Node × flags). */
const keyFolders = (cache: string) => (existsSync(join(cache, 'code')) ? readdirSync(join(cache, 'code')) : []);
const KEY = (build: string) => new RegExp(`^${build}-v${process.versions.node.replaceAll('.', '\\.')}-[0-9a-f]{8}$`);
/** Every file under `dir`, relative. */
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

describe('the first run makes the cache, in the user\'s cache folder', () => {
  it('under XDG_CACHE_HOME (else ~/.cache), in a folder named by the build, the Node and its flags; the next run takes it', () => {
    const dir = install();
    const home = tempDir();
    const xdg = tempDir();
    const first = run(dir, FORMULA, { HOME: home, XDG_CACHE_HOME: xdg });
    expect(first).toMatchObject({ code: 0, stdout: 'valid (uses L: no)\n', stderr: '' });
    expect(first.seen).toEqual([{ compiled: 'main.cjs', cache: false, rejected: false }, { made: true }]);
    const [key, ...others] = keyFolders(join(xdg, 'reportctl'));
    expect(others).toEqual([]);
    expect(key).toMatch(KEY(buildOf(dir)));
    expect(readdirSync(join(xdg, 'reportctl', 'code', key!))).toEqual(['main.cjs.formula.cache']);
    // Private: V8 runs what a cache holds.
    expect(statSync(join(xdg, 'reportctl', 'code', key!)).mode & 0o777).toBe(0o700);
    expect(statSync(join(xdg, 'reportctl', 'code', key!, 'main.cjs.formula.cache')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(home, '.cache'))).toBe(false);

    const second = run(dir, FORMULA, { HOME: home, XDG_CACHE_HOME: xdg });
    expect(second).toMatchObject({ code: 0, stdout: 'valid (uses L: no)\n', stderr: '' });
    expect(second.seen).toEqual([{ compiled: 'main.cjs', cache: true, rejected: false }]);

    // Without XDG_CACHE_HOME, or with a relative one (the XDG spec says to ignore it): ~/.cache.
    run(dir, FORMULA, { HOME: home, XDG_CACHE_HOME: undefined });
    run(dir, ['--version'], { HOME: home, XDG_CACHE_HOME: 'relative/cache' });
    expect(readdirSync(join(home, '.cache', 'reportctl', 'code', key!)).sort()).toEqual(['main.cjs.formula.cache', 'main.cjs.root.cache']);
  });

  it('REPORTCTL_CACHE_DIR moves it (catalogs are cached there too)', () => {
    const cache = tempDir();
    const xdg = tempDir();
    expect(run(install(), FORMULA, { REPORTCTL_CACHE_DIR: cache, XDG_CACHE_HOME: xdg }).code).toBe(0);
    expect(keyFolders(cache)).toHaveLength(1);
    expect(readdirSync(xdg)).toEqual([]);
  });

  it('each platform\'s cache folder: ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows', () => {
    expect(userCacheFolder({ HOME: '/home/ana' }, 'linux')).toBe('/home/ana/.cache/reportctl');
    expect(userCacheFolder({ HOME: '/home/ana', XDG_CACHE_HOME: '/var/cache/ana' }, 'linux')).toBe('/var/cache/ana/reportctl');
    expect(userCacheFolder({ HOME: '/Users/ana', XDG_CACHE_HOME: '/ignored' }, 'darwin')).toBe('/Users/ana/Library/Caches/reportctl');
    expect(userCacheFolder({ HOME: 'C:\\Users\\ana', LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'win32')).toMatch(/^C:\\Users\\ana\\AppData\\Local[\\/]reportctl[\\/]Cache$/);
    expect(userCacheFolder({ HOME: '/home/ana', REPORTCTL_CACHE_DIR: '/srv/cache' }, 'darwin')).toBe('/srv/cache');
  });

  it('one cache per top-level command, and another Node flag makes another folder', () => {
    const dir = install();
    const cache = tempDir();
    for (const args of [FORMULA, ['--help'], ['templates', 'list', '--help'], ['admin', 'accounts', 'list', '--db', ':memory:']]) {
      expect(run(dir, args, { REPORTCTL_CACHE_DIR: cache }).code).toBe(0);
    }
    const [key] = keyFolders(cache);
    // The service's own files (dist/embedded.cjs) get theirs beside the CLI's, and the root help its list (src/cli/root-help.ts).
    expect(readdirSync(join(cache, 'code', key!)).sort()).toEqual([
      'embedded.cjs.cache',
      'main.cjs.admin.cache',
      'main.cjs.formula.cache',
      'main.cjs.root.cache',
      'main.cjs.templates.cache',
      'root-help.json',
    ]);
    // V8 refuses a cache made under other flags: they get a folder of their own.
    run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache, NODE_OPTIONS: '--max-old-space-size=200' });
    expect(keyFolders(cache)).toHaveLength(2);
  });
});

describe('where it is never made', () => {
  it('in the installed package or the working folder', () => {
    const dir = install();
    const cwd = tempDir();
    const before = filesUnder(dir);
    const cache = tempDir();
    for (const args of [FORMULA, ['--help'], ['admin', 'accounts', 'list', '--db', ':memory:']]) {
      const result = spawnSync(process.execPath, [join(dir, 'bin', 'reportctl.js'), ...args], { cwd, env: cleanEnv({ REPORTCTL_CACHE_DIR: cache }), encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
    }
    expect(filesUnder(dir)).toEqual(before);
    expect(readdirSync(cwd)).toEqual([]);
    expect(filesUnder(cache).length).toBeGreaterThan(0);
  });

  it('REPORTCTL_NO_CACHE=1: nothing read, nothing written, Node\'s own compile cache off too', () => {
    const cache = tempDir();
    const result = run(install(), ['formula', 'check', 'ndvi'], { REPORTCTL_CACHE_DIR: cache, REPORTCTL_NO_CACHE: '1', FORCE_COLOR: '1' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('\u001b[31m');
    expect(result.seen).toEqual([{ compiled: 'main.cjs', cache: false, rejected: false }]);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('on Node 24 and later, Node\'s compile cache (the packages loaded from node_modules) goes into the same folder', () => {
    const cache = tempDir();
    // A coloured diagnostic loads chalk, through dist/import-package.cjs: both by Node's module loader.
    expect(run(install(), ['formula', 'check', 'ndvi'], { REPORTCTL_CACHE_DIR: cache, FORCE_COLOR: '1' }).stdout).toContain('\u001b[31m');
    const nodeCache = join(cache, 'node');
    if (Number(process.versions.node.split('.')[0]) >= 24) expect(filesUnder(nodeCache).length).toBeGreaterThan(0);
    else expect(existsSync(nodeCache)).toBe(false);
  });
});

describe('a cache folder that cannot be used costs nothing but the cache', () => {
  const answers = (dir: string) => {
    const plain = run(dir, FORMULA, { REPORTCTL_NO_CACHE: '1' });
    return { code: plain.code, stdout: plain.stdout, stderr: plain.stderr };
  };

  it('a file where the folder should be: the same answer, and no cache is even made', () => {
    const dir = install();
    const file = join(tempDir(), 'cache');
    writeFileSync(file, 'not a folder');
    const result = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: file });
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual(answers(dir));
    expect(result.seen).toEqual([{ compiled: 'main.cjs', cache: false, rejected: false }]);
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('a read-only folder: the same answer, no cache made, nothing left in it', () => {
    const dir = install();
    const cache = tempDir();
    chmodSync(cache, 0o555);
    // Root writes anywhere: the command then runs as nobody (a folder of root's, read-only to it).
    const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const result = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache, HOME: '/nonexistent' }, asOther);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual(answers(dir));
    expect(result.seen).toEqual([{ compiled: 'main.cjs', cache: false, rejected: false }]);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('a folder others can write to is neither read nor written: V8 would run what is in it', () => {
    const dir = install();
    const cache = tempDir();
    run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    const [key] = keyFolders(cache);
    chmodSync(join(cache, 'code', key!), 0o777);
    const result = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    expect(result).toMatchObject({ code: 0, stdout: 'valid (uses L: no)\n' });
    expect(result.seen).toEqual([{ compiled: 'main.cjs', cache: false, rejected: false }]);
  });
});

describe('caches that V8 refuses, or that belong to another build', () => {
  it('a cache cut short or full of noise: V8 refuses it, the command answers the same, and the run writes a good one', () => {
    const dir = install();
    const cache = tempDir();
    run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    const file = join(cache, 'code', keyFolders(cache)[0]!, 'main.cjs.formula.cache');
    const good = readFileSync(file);
    for (const bad of [good.subarray(0, 100), Buffer.alloc(good.length, 0x5a)]) {
      writeFileSync(file, bad);
      const refused = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
      expect(refused).toMatchObject({ code: 0, stdout: 'valid (uses L: no)\n', stderr: '' });
      expect(refused.seen).toEqual([{ compiled: 'main.cjs', cache: true, rejected: true }, { made: true }]);
      expect(run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache }).seen).toEqual([{ compiled: 'main.cjs', cache: true, rejected: false }]);
    }
  });

  it('a rebuild that changed the bundle but not its length has another id, so it never runs the old code', () => {
    // V8 checks only a cache's source length: the old code would run if the id did not change.
    const dir = install();
    const cache = tempDir();
    run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    const main = join(dir, 'dist', 'main.cjs');
    const source = readFileSync(main, 'utf8');
    // (toBe on booleans: a failure must not print the whole bundle.)
    expect(source.includes('`uses L: ${')).toBe(true);
    const rebuilt = source.replace(/ \/\/ build [0-9a-f]{16}\n/, ` // build ${'0'.repeat(16)}\n`).replaceAll('`uses L: ${', '`USES L: ${');
    expect(rebuilt.length === source.length && rebuilt !== source).toBe(true);
    writeFileSync(main, rebuilt);
    const result = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    expect(result).toMatchObject({ code: 0, stdout: 'valid (USES L: no)\n', stderr: '' });
    expect(result.seen[0]).toEqual({ compiled: 'main.cjs', cache: false, rejected: false });
    expect(keyFolders(cache)).toHaveLength(2);
    // A file without the wrapper and its id (a plain CommonJS file) is left to Node's loader.
    writeFileSync(main, rebuilt.replace(/^.*\n/, '').replace(/\n}\)\n(\/\/[^\n]*\n?)$/, '\n$1'));
    expect(run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache })).toMatchObject({ stdout: 'valid (USES L: no)\n', seen: [] });
  });
});

describe('old caches are pruned', () => {
  it('making a new folder keeps the three newest others, and leaves what is not a cache folder alone', () => {
    const cache = tempDir();
    const olds = Array.from({ length: 5 }, (_, at) => `${String(at).repeat(16)}-v20.0.0-0000000${at}`);
    olds.forEach((name, at) => {
      mkdirSync(join(cache, 'code', name), { recursive: true, mode: 0o700 });
      writeFileSync(join(cache, 'code', name, 'main.cjs.root.cache'), 'old');
      const madeAt = new Date(Date.UTC(2026, 0, 1 + at));
      utimesSync(join(cache, 'code', name), madeAt, madeAt);
    });
    mkdirSync(join(cache, 'code', 'notes'));
    const dir = install();
    expect(run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache }).code).toBe(0);
    const key = keyFolders(cache).find((name) => KEY(buildOf(dir)).test(name));
    expect(keyFolders(cache).sort()).toEqual([key, ...olds.slice(2), 'notes'].sort());
    // A run that makes no new folder prunes nothing.
    mkdirSync(join(cache, 'code', olds[0]!), { mode: 0o700 });
    utimesSync(join(cache, 'code', olds[0]!), new Date(0), new Date(0));
    run(dir, ['--version'], { REPORTCTL_CACHE_DIR: cache });
    expect(keyFolders(cache)).toContain(olds[0]);
  });
});

describe('concurrent first runs', () => {
  it('never see a half-written cache: each writes a file of its own, then renames it into place', { timeout: 60_000 }, async () => {
    const dir = install();
    const cache = tempDir();
    const logs = tempDir();
    const runs = await Promise.all(
      Array.from({ length: 4 }, (_, at) => new Promise<{ code: number | null; stdout: string }>((resolve) => {
        // Under the probe too: its path is part of the cache's key.
        const env = cleanEnv({ REPORTCTL_CACHE_DIR: cache, PROBE_LOG: join(logs, `${at}.log`) });
        const child = spawn(process.execPath, ['-r', probe(), join(dir, 'bin', 'reportctl.js'), ...FORMULA], { env });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.on('close', (code) => resolve({ code, stdout }));
      })),
    );
    expect(runs).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stdout: 'valid (uses L: no)\n' })));
    // One whole cache, no temporary file left, and V8 takes it.
    const [key] = keyFolders(cache);
    expect(readdirSync(join(cache, 'code', key!))).toEqual(['main.cjs.formula.cache']);
    expect(keyFolders(cache)).toEqual([key]);
    expect(run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache }).seen).toEqual([{ compiled: 'main.cjs', cache: true, rejected: false }]);
  });

  it('the file goes in under its name only once it is whole: opened as a new temporary file first', () => {
    const result = run(install(), FORMULA, { REPORTCTL_CACHE_DIR: tempDir(), PROBE_FILES: '1' });
    expect(result.seen).toEqual([
      // The read that finds none.
      { openSync: ['main.cjs.formula.cache', 'r'] },
      { compiled: 'main.cjs', cache: false, rejected: false },
      // Opened before V8 serialises anything, and never one another run opened ('wx').
      { openSync: ['main.cjs.formula.cache.PID.tmp', 'wx'] },
      { made: true },
      { renameSync: ['main.cjs.formula.cache.PID.tmp', 'main.cjs.formula.cache'] },
    ]);
  });
});

describe('every kind of command answers the same with caches and without', () => {
  // Plain output, colour through chalk (an ES module, loaded by import()), the embedded
  // service's file with better-sqlite3, a client command's help: everything the bin must load.
  const COMMANDS: Array<[args: string[], env: Record<string, string>]> = [
    [FORMULA, {}],
    [['formula', 'check', '--json', 'NIR/R'], {}],
    [['formula', 'check', 'ndvi'], { FORCE_COLOR: '1' }],
    [['admin', 'accounts', 'list', '--db', ':memory:', '--json'], {}],
    [['templates', 'list', '--help'], {}],
  ];

  it.each(COMMANDS)('%j', (args, env) => {
    const dir = install();
    const cache = tempDir();
    const plain = run(dir, args, { ...env, REPORTCTL_NO_CACHE: '1' });
    const first = run(dir, args, { ...env, REPORTCTL_CACHE_DIR: cache });
    const cached = run(dir, args, { ...env, REPORTCTL_CACHE_DIR: cache });
    expect(plain.stdout.length).toBeGreaterThan(0);
    for (const result of [first, cached]) expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: plain.code, stdout: plain.stdout, stderr: plain.stderr });
    expect(cached.seen.every((entry) => entry.cache === true && entry.rejected === false)).toBe(true);
  });
});

describe('the bin names each top-level command\'s cache', () => {
  it('COMMANDS in bin/reportctl.js is the command tree\'s top level', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'reportctl.js'), 'utf8');
    const listed = /const COMMANDS = new Set\((\[[^\]]*\])\)/.exec(bin)?.[1];
    expect(listed, 'COMMANDS in bin/reportctl.js').toBeDefined();
    const { deps } = testDeps();
    // Hidden ones (__complete) too: a new top-level command fails here until it is listed.
    const tree = buildProgram(deps, () => {}).commands.map((command) => command.name());
    expect((JSON.parse(listed!.replaceAll("'", '"')) as string[]).sort()).toEqual(tree.sort());
  });
});

describe('no temporary file is left when writing fails', () => {
  it('a cache folder that disappears mid-run: the command still answers, nothing half-written stays', () => {
    // The key folder exists but holds a directory where the cache file would go: the rename fails.
    const dir = install();
    const cache = tempDir();
    run(dir, ['--version'], { REPORTCTL_CACHE_DIR: cache });
    const [key] = keyFolders(cache);
    mkdirSync(join(cache, 'code', key!, 'main.cjs.formula.cache'));
    writeFileSync(join(cache, 'code', key!, 'main.cjs.formula.cache', 'x'), '');
    const result = run(dir, FORMULA, { REPORTCTL_CACHE_DIR: cache });
    expect(result).toMatchObject({ code: 0, stdout: 'valid (uses L: no)\n', stderr: '' });
    expect(readdirSync(join(cache, 'code', key!)).sort()).toEqual(['main.cjs.formula.cache', 'main.cjs.root.cache']);
    rmSync(join(cache, 'code', key!, 'main.cjs.formula.cache'), { recursive: true });
  });
});
