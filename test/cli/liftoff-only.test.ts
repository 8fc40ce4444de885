// Across verbs: every network command compiles undici's parser with Liftoff only, and every
// code cache a command reads is taken.
/**
 * undici compiles its WebAssembly HTTP parser at a network command's first connection, with
 * Liftoff only (bin/liftoff-only.js, called from its edited source), and V8's default flags are
 * back before anything else compiles (Node 24 sets its JIT tiers only at exit). What only
 * the process shows, seen by a preload around V8's entry points: the flags around each compile, and that every code cache the command
 * read was taken (V8 refuses a cache made under other flags, and the command would then
 * compile every file from source).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { api, serverForSuite, tempDir } from '../helpers/server.js';

interface Seen {
  /** In order: each V8 flag change ('flags ...') and each WebAssembly compile ('compile', 'async compile'). */
  events: string[];
  /** Each file compiled with a code cache, and whether V8 refused that cache. */
  caches: Array<{ file: string; rejected: boolean }>;
}

const PROBE = `
const fs = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');
const seen = { events: [], caches: [] };
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = function (flags) { seen.events.push('flags ' + flags); return setFlags.call(this, flags); };
const compile = WebAssembly.compile;
WebAssembly.compile = function (...args) { seen.events.push('async compile'); return compile.apply(this, args); };
WebAssembly.Module = new Proxy(WebAssembly.Module, { construct(target, args) { seen.events.push('compile'); return Reflect.construct(target, args); } });
const Script = vm.Script;
vm.Script = function (source, options) {
  const script = new Script(source, options);
  if (options?.cachedData) seen.caches.push({ file: options.filename, rejected: script.cachedDataRejected });
  return script;
};
process.on('exit', () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify(seen)));
`;

/**
 * On Node 24 and later, the JIT tiers Node 20 and 22 run with, set once (bin/code-cache.js): by a
 * network command after it compiles the parser, by any other before it exits.
 */
const TIERS_OFF = Number(process.versions.node.split('.')[0]) >= 23 ? ['flags --no-maglev --no-concurrent-sparkplug'] : [];
const EXIT_TIERS = TIERS_OFF;

/** One compile, under Liftoff-only flags, with V8's defaults set again right after it (and the tiers off). */
const LIFTOFF_ONLY_COMPILE = [expect.stringMatching(/^flags .*--liftoff-only/), 'compile', expect.stringMatching(/^flags .*--no-liftoff-only/), ...TIERS_OFF];

let probe: string | undefined;

/**
 * The command run under the probe, after a first run that makes its code caches (in the run's
 * cache folder, test/setup/cache-folder.ts). The probe has one path: Node's flags are part of a cache's key.
 */
function traced(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string; seen: Seen } {
  if (probe === undefined) {
    probe = join(tempDir(), 'probe.cjs');
    writeFileSync(probe, PROBE);
  }
  const out = join(tempDir(), 'seen.json');
  const run = () => spawnSync(process.execPath, ['--require', probe!, BIN, ...args], { encoding: 'utf8', env: cleanEnv({ ...env, PROBE_OUT: out }) });
  run();
  const result = run();
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, seen: JSON.parse(readFileSync(out, 'utf8')) as Seen };
}

describe("undici's HTTP parser, compiled with Liftoff only", () => {
  const suite = serverForSuite();
  let templateId: string;
  beforeAll(async () => {
    const presets = await api(suite.server, 'GET', '/api/v2/templates/presets', { key: suite.account.apiKey });
    const seed = (presets.body as { data: Array<{ seedPayload: Record<string, unknown> }> }).data[0]!.seedPayload;
    const created = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body: { ...seed, name: 'parser' } });
    expect(created.status).toBe(201);
    templateId = (created.body as { id: string }).id;
  });

  it.each([
    [['templates', 'get', '{id}']],
    [['templates', 'list', '--json']],
    [['catalogs', 'report-types']],
  ])('reportctl %j compiles it once, with Liftoff only, and takes every code cache it reads', (template) => {
    const args = template.map((arg) => arg.replace('{id}', templateId));
    const { status, stdout, stderr, seen } = traced(args, suite.env);
    expect(status, stderr).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
    expect(seen.events).toEqual(LIFTOFF_ONLY_COMPILE);
    // The CLI's bundle, undici's and a generated check at least: the check is read after the compile.
    const files = seen.caches.map((cache) => basename(cache.file));
    expect(files).toEqual(expect.arrayContaining(['main.cjs', 'vendor-undici.cjs']));
    expect(files.some((file) => file.startsWith('checks-'))).toBe(true);
    expect(seen.caches.filter((cache) => cache.rejected)).toEqual([]);
  });

  it('where undici is told not to use SIMD, its other parser is compiled the same way and answers the same', () => {
    const reference = traced(['templates', 'get', templateId, '--json'], suite.env);
    const { status, stdout, stderr, seen } = traced(['templates', 'get', templateId, '--json'], { ...suite.env, UNDICI_NO_WASM_SIMD: '1' });
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(reference.stdout));
    expect(JSON.parse(stdout).id).toBe(templateId);
    expect(seen.events).toEqual(LIFTOFF_ONLY_COMPILE);
    expect(seen.caches.filter((cache) => cache.rejected)).toEqual([]);
  });

  it('without WebAssembly (node --jitless) a network command fails with a message and exit 6, no stack trace', () => {
    const result = spawnSync(process.execPath, ['--jitless', BIN, 'templates', 'get', templateId], { encoding: 'utf8', env: cleanEnv(suite.env) });
    expect(result.status, result.stderr).toBe(6);
    expect(result.stderr).toContain('WebAssembly is not defined');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  });

  it('with --jq, jq\'s WebAssembly is compiled with Liftoff only as well, and every cache read after it is taken', () => {
    const { status, stdout, stderr, seen } = traced(['templates', 'get', templateId, '--jq', '.id'], suite.env);
    expect(status, stderr).toBe(0);
    expect(stdout).toBe(`${templateId}\n`);
    // jq's module, its two runs (the expression's check, then the answer), then undici's parser.
    const liftoff = expect.stringMatching(/^flags --liftoff-only /);
    const back = expect.stringMatching(/^flags --no-liftoff-only /);
    expect(seen.events).toEqual([liftoff, 'compile', back, liftoff, back, ...LIFTOFF_ONLY_COMPILE, liftoff, back]);
    expect(seen.caches.map((cache) => basename(cache.file))).toEqual(expect.arrayContaining(['main.cjs', 'vendor-undici.cjs']));
    expect(seen.caches.filter((cache) => cache.rejected)).toEqual([]);
  });

  it('no function of the parser is optimised later either (V8 tiers Liftoff code up by default; a catalog makes it busy)', () => {
    const result = spawnSync(process.execPath, ['--trace-wasm-compilation-times', BIN, 'catalogs', 'report-types'], { encoding: 'utf8', env: cleanEnv(suite.env) });
    expect(result.status, result.stderr).toBe(0);
    const tiers = new Set([...result.stdout.matchAll(/^Compiled function \S+ using (\w+)/gm)].map((match) => match[1]));
    expect(tiers).toEqual(new Set(['Liftoff']));
  });

  it('an offline command compiles no parser at all', () => {
    const { status, stderr, seen } = traced(['formula', 'check', 'NIR/(R+eps)']);
    expect(status, stderr).toBe(0);
    expect(seen.events).toEqual(EXIT_TIERS);
    expect(seen.caches.map((cache) => basename(cache.file))).toEqual(['main.cjs']);
    expect(seen.caches[0]!.rejected).toBe(false);
  });
});
