// Across verbs: every kind of command answers the same with the build's V8 code cache, without
// one, or with a damaged or stale one; the bin picks the cache made for the command's group.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { buildProgram } from '../../src/cli/program.js';
import { testDeps } from '../helpers/test-deps.js';

/**
 * bin/reportctl.js compiles dist/main.cjs from V8's code cache that the build leaves beside
 * it, but only a cache of that very build. Each case runs a copy of the installed package with
 * the cache intact, missing, stale or damaged, against the same commands run from a copy with
 * no cache at all (every file compiled from its text).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function install(): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string> = {}): Run {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: cleanEnv(env), timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Plain output, colour through chalk (an ES module, loaded by import()), and the embedded
// service's file with better-sqlite3: everything the bin must still load.
const COMMANDS: Array<[args: string[], env: Record<string, string>]> = [
  [['formula', 'check', 'NIR/(R+eps)'], {}],
  [['formula', 'check', '--json', 'NIR/R'], {}],
  [['formula', 'check', 'ndvi'], { FORCE_COLOR: '1' }],
  [['admin', 'accounts', 'list', '--db', ':memory:', '--json'], {}],
  // A client command: the bin compiles the CLI from its other cache (kind `client`).
  [['templates', 'list', '--help'], {}],
];

let uncachedAnswers: Run[] | undefined;
/** What COMMANDS answer from a copy without a single code cache, run once. */
function answersWithoutCaches(): Run[] {
  if (uncachedAnswers === undefined) {
    const dir = install();
    for (const name of readdirSync(join(dir, 'dist')).filter((file) => file.endsWith('.cache'))) rmSync(join(dir, 'dist', name));
    uncachedAnswers = COMMANDS.map(([args, env]) => run(join(dir, 'bin', 'reportctl.js'), args, env));
  }
  return uncachedAnswers;
}

/** The bin's answers in `dir`, next to those of a copy with no cache. */
function expectSameAsWithoutCaches(dir: string): void {
  const reference = answersWithoutCaches();
  COMMANDS.forEach(([args, env], at) => {
    const viaBin = run(join(dir, 'bin', 'reportctl.js'), args, env);
    expect(viaBin, args.join(' ')).toEqual(reference[at]);
    expect(viaBin.stdout.length, args.join(' ')).toBeGreaterThan(0);
  });
}

/** A wrapped file's first line: Node's module wrapper, then the build's id. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';
const idOf = (source: string) => /^\(function \(exports, require, module, __filename, __dirname\) \{ \/\/ build ([0-9a-f]{16})\n/.exec(source)?.[1];

/**
 * Whether V8, in a fresh `node` under the bin's JIT flags, takes each cache (without its id
 * line) for its file: one process for all of them (compiling one script changes no flag).
 */
function v8AcceptsEach(pairs: Array<[main: string, cache: Buffer]>): boolean[] {
  const probe = `
    require(${JSON.stringify(join(ROOT, 'bin', 'jit-tiers.js'))});
    const vm = require('node:vm'), fs = require('node:fs');
    const verdicts = JSON.parse(fs.readFileSync(process.argv[1], 'utf8')).map(([main, cache]) => {
      const script = new vm.Script(fs.readFileSync(main, 'utf8'), { filename: main, cachedData: fs.readFileSync(cache).subarray(17) });
      return !script.cachedDataRejected;
    });
    process.stdout.write(JSON.stringify(verdicts));`;
  const dir = tempDir();
  const list = pairs.map(([main, cache], at) => {
    const file = join(dir, `cache-${at}`);
    writeFileSync(file, cache);
    return [main, file];
  });
  writeFileSync(join(dir, 'pairs.json'), JSON.stringify(list));
  const result = spawnSync(process.execPath, ['-e', probe, join(dir, 'pairs.json')], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as boolean[];
}

const v8Accepts = (main: string, cache: Buffer): boolean => v8AcceptsEach([[main, cache]])[0]!;

/** Each bundle and the cache the build leaves for it. */
const CACHES: Array<[file: string, cacheFile: string]> = [
  ['main.cjs', 'main.cjs.cache'],
  ['main.cjs', 'main.cjs.client.cache'],
  ['vendor-undici.cjs', 'vendor-undici.cjs.cache'],
  ['vendor-zod.cjs', 'vendor-zod.cjs.cache'],
  ['checks-templatePage.cjs', 'checks-templatePage.cjs.cache'],
  ['checks-template.cjs', 'checks-template.cjs.cache'],
  ['checks-queueRunPage.cjs', 'checks-queueRunPage.cjs.cache'],
  ['embedded.cjs', 'embedded.cjs.cache'],
  ['vendor-fastify.cjs', 'vendor-fastify.cjs.cache'],
];

describe('V8 code cache of dist/main.cjs', () => {
  let source: string;
  let cache: Buffer;
  /** V8's verdict on each of CACHES, by cache file. */
  const taken = new Map<string, boolean>();
  beforeAll(() => {
    source = readFileSync(join(ROOT, 'dist', 'main.cjs'), 'utf8');
    cache = readFileSync(join(ROOT, 'dist', 'main.cjs.cache'));
    const verdicts = v8AcceptsEach(CACHES.map(([file, cacheFile]) => [join(ROOT, 'dist', file), readFileSync(join(ROOT, 'dist', cacheFile))]));
    CACHES.forEach(([, cacheFile], at) => taken.set(cacheFile, verdicts[at]!));
  });

  it('the build leaves a cache that names its build and that V8 takes', () => {
    const id = idOf(source);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(cache.toString('latin1', 0, 17)).toBe(`${id}\n`);
    expect(taken.get('main.cjs.cache')).toBe(true);
  });

  // Each is compiled under V8's default flags, so each cache must have been made under them (V8
  // checks): undici's parser is compiled under other flags, set back at once (bin/liftoff-only.js).
  it.each(CACHES.slice(1))('and one for dist/%s (client commands, client packages, generated checks, service, its HTTP framework) in %s, of the same build', (file, cacheFile) => {
    const other = readFileSync(join(ROOT, 'dist', file), 'utf8');
    const otherCache = readFileSync(join(ROOT, 'dist', cacheFile));
    expect(idOf(other)).toBe(idOf(source));
    expect(otherCache.toString('latin1', 0, 17)).toBe(`${idOf(source)}\n`);
    expect(taken.get(cacheFile)).toBe(true);
  });

  it('with the cache, every kind of command answers exactly as without one', { timeout: 60_000 }, () => {
    expectSameAsWithoutCaches(install());
  });

  it('every file compiled from a cache is the module wrapper around the bundle, whole', () => {
    for (const file of readdirSync(join(ROOT, 'dist')).filter((name) => name.endsWith('.cache'))) {
      const bundle = readFileSync(join(ROOT, 'dist', file.replace(/(\.client)?\.cache$/, '')), 'utf8');
      expect(bundle.startsWith(`${WRAPPER}// build ${idOf(source)}\n`), file).toBe(true);
      // What follows the wrapper's end is comments only: the file's value is the function.
      expect(/\n}\)(\n\/\/[^\n]*|\n\/\*[^]*?\*\/)*\n?$/.test(bundle), file).toBe(true);
    }
  });

  it('without a cache, or with one cut short or full of noise, the bin still works', { timeout: 60_000 }, () => {
    const missing = install();
    rmSync(join(missing, 'dist', 'main.cjs.cache'));
    expectSameAsWithoutCaches(missing);

    const short = install();
    writeFileSync(join(short, 'dist', 'main.cjs.cache'), cache.subarray(0, 17));
    expectSameAsWithoutCaches(short);

    // The right id over bytes V8 cannot use: V8 refuses them and compiles the source.
    const noise = install();
    writeFileSync(join(noise, 'dist', 'main.cjs.cache'), Buffer.concat([cache.subarray(0, 17), Buffer.alloc(cache.length - 17, 0x5a)]));
    expectSameAsWithoutCaches(noise);
  });

  it('a cache of another build is never used, even when V8 would take it', { timeout: 60_000 }, () => {
    // A rebuild that changed a message but not the file's length: V8 checks only the length,
    // so the old code would run; the build id is what tells the two apart.
    const dir = install();
    const main = join(dir, 'dist', 'main.cjs');
    // (toBe on booleans: a failure must not print the whole bundle.)
    expect(source.includes('`uses L: ${')).toBe(true);
    const rebuilt = source.replace(/ \/\/ build [0-9a-f]{16}\n/, ` // build ${'0'.repeat(16)}\n`).replaceAll('`uses L: ${', '`USES L: ${');
    expect(rebuilt.length === source.length && rebuilt !== source).toBe(true);
    writeFileSync(main, rebuilt);
    expect(v8Accepts(main, cache)).toBe(true);

    const result = run(join(dir, 'bin', 'reportctl.js'), ['formula', 'check', 'NIR/(R+eps)']);
    expect(result).toEqual({ code: 0, stdout: 'valid (USES L: no)\n', stderr: '' });
    // A file without the wrapper and its id (a plain CommonJS file) is left to Node's loader,
    // and no cache is tried at all.
    writeFileSync(main, rebuilt.replace(/^.*\n/, '').replace(/\n}\)\n(\/\/[^\n]*\n?)$/, '\n$1'));
    expect(run(join(dir, 'bin', 'reportctl.js'), ['formula', 'check', 'NIR/(R+eps)']).stdout).toBe('valid (USES L: no)\n');
  });

  it('on Node 24 and later, Node keeps its own compile cache for the packages a command loads', { timeout: 30_000 }, () => {
    const tmp = tempDir();
    // A coloured diagnostic loads chalk, through dist/import-package.cjs: both by Node's module loader.
    expect(run(join(install(), 'bin', 'reportctl.js'), ['formula', 'check', 'ndvi'], { TMPDIR: tmp, FORCE_COLOR: '1' }).stdout).toContain('\u001b[31m');
    const cacheDir = join(tmp, 'node-compile-cache');
    if (Number(process.versions.node.split('.')[0]) >= 24) {
      const versions = readdirSync(cacheDir);
      expect(versions).toHaveLength(1);
      expect(readdirSync(join(cacheDir, versions[0]!)).length).toBeGreaterThan(0);
    } else {
      expect(existsSync(cacheDir)).toBe(false);
    }
  });
});

/** The top-level commands that never reach the service: the bin compiles them from the offline cache. */
const OFFLINE_GROUPS = ['config', 'formula', 'serve', 'admin', 'completion', 'help'];

describe('the bin picks the client cache for exactly the client groups', () => {
  it('CLIENT_GROUPS in bin/reportctl.js is every top-level command that is not offline', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'reportctl.js'), 'utf8');
    const listed = /const CLIENT_GROUPS = new Set\((\[[^\]]*\])\)/.exec(bin)?.[1];
    expect(listed, 'CLIENT_GROUPS in bin/reportctl.js').toBeDefined();
    const clientGroups = (JSON.parse(listed!.replaceAll("'", '"')) as string[]).sort();
    const { deps } = testDeps();
    // Hidden ones (__complete) too: they load the client like any other.
    const tree = buildProgram(deps, () => {}).commands.map((command) => command.name());
    // A new top-level command fails here until it is put in one of the two lists.
    expect(clientGroups).toEqual(tree.filter((name) => !OFFLINE_GROUPS.includes(name)).sort());
    expect(OFFLINE_GROUPS.filter((name) => !tree.includes(name))).toEqual([]);
  });
});
