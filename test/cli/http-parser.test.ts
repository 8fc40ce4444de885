/**
 * A network command compiles undici's HTTP parser on a background thread from its start
 * (bin/http-parser.js) and undici takes that module at its first connection. What only the
 * process shows, seen by a preload around V8's entry points: how many parsers were compiled,
 * and how; and that every code cache the command read was taken, although V8's flags were
 * changed for a turn of the event loop to set the compile going (V8 refuses a cache made
 * under other flags, and the command would then compile every file from source).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { api, serverForSuite, tempDir } from '../helpers/server.js';

interface Seen {
  /** WebAssembly.compile calls: the background compile. */
  backgroundCompiles: number;
  /** new WebAssembly.Module calls: a compile on the main thread (undici's own). */
  mainThreadCompiles: number;
  /** Each file compiled with a code cache, and whether V8 refused that cache. */
  caches: Array<{ file: string; rejected: boolean }>;
}

const PROBE = `
const fs = require('node:fs');
const vm = require('node:vm');
const seen = { backgroundCompiles: 0, mainThreadCompiles: 0, caches: [] };
const compile = WebAssembly.compile;
WebAssembly.compile = function (...args) { seen.backgroundCompiles++; return compile.apply(this, args); };
WebAssembly.Module = new Proxy(WebAssembly.Module, { construct(target, args) { seen.mainThreadCompiles++; return Reflect.construct(target, args); } });
const Script = vm.Script;
vm.Script = function (source, options) {
  const script = new Script(source, options);
  if (options?.cachedData) seen.caches.push({ file: options.filename, rejected: script.cachedDataRejected });
  return script;
};
process.on('exit', () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify(seen)));
`;

/**
 * The compile ends late, as on a busy machine: its promise settles after a wait that, like
 * V8's own compile tasks, is no handle of Node's event loop. A command that then waits for it
 * with nothing else pending must still get its answer instead of Node ending the process.
 */
const LATE_COMPILE = `
const onTime = WebAssembly.compile;
WebAssembly.compile = function (...args) {
  const compiled = onTime.apply(this, args);
  return new Promise((resolve, reject) => setTimeout(() => compiled.then(resolve, reject), 400).unref());
};
`;

/**
 * Worse: the compile never ends, and the timer that holds the event loop open for it does not
 * hold it (unref'd), so the loop runs dry while the command waits.
 */
const DRY_LOOP = `
WebAssembly.compile = function () { return new Promise(() => {}); };
const timerOf = setTimeout;
globalThis.setTimeout = function (fn, ms, ...args) {
  const timer = timerOf(fn, ms, ...args);
  if (ms >= 2 ** 31 - 1) timer.unref();
  return timer;
};
`;

function traced(
  args: string[],
  env: Record<string, string> = {},
  extraProbe = '',
): { status: number | null; stdout: string; stderr: string; seen: Seen } {
  const dir = tempDir();
  const probe = join(dir, 'probe.cjs');
  const out = join(dir, 'seen.json');
  writeFileSync(probe, PROBE + extraProbe);
  const result = spawnSync(process.execPath, ['--require', probe, BIN, ...args], { encoding: 'utf8', env: cleanEnv({ ...env, PROBE_OUT: out }) });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, seen: JSON.parse(readFileSync(out, 'utf8')) as Seen };
}

describe("undici's HTTP parser, compiled in the background", () => {
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
  ])('reportctl %j compiles it once, off the main thread, and takes every code cache it reads', (template) => {
    const args = template.map((arg) => arg.replace('{id}', templateId));
    const { status, stdout, stderr, seen } = traced(args, suite.env);
    expect(status, stderr).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
    expect(seen.backgroundCompiles).toBe(1);
    expect(seen.mainThreadCompiles).toBe(0);
    // The CLI's bundle, undici's and a generated check at least, all read after the flags changed back.
    const files = seen.caches.map((cache) => basename(cache.file));
    expect(files).toEqual(expect.arrayContaining(['main.cjs', 'vendor-undici.cjs']));
    expect(files.some((file) => file.startsWith('checks-'))).toBe(true);
    expect(seen.caches.filter((cache) => cache.rejected)).toEqual([]);
  });

  it('a compile that ends after the first request is ready still gets that request its answer', () => {
    const { status, stdout, stderr, seen } = traced(['templates', 'get', templateId, '--json'], suite.env, LATE_COMPILE);
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout).id).toBe(templateId);
    expect(seen.backgroundCompiles).toBe(1);
    expect(seen.mainThreadCompiles).toBe(0);
  });

  it('a command whose event loop runs dry before its work is done fails and says so, never a silent exit 0', () => {
    for (const json of [false, true]) {
      const { status, stdout, stderr } = traced(['templates', 'get', templateId, ...(json ? ['--json'] : [])], suite.env, DRY_LOOP);
      expect(status, stderr).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).not.toMatch(/^\s+at /m);
      if (json) expect(JSON.parse(stderr)).toMatchObject({ error: 'INTERNAL_ERROR', exitCode: 1 });
      else expect(stderr).toMatch(/^reportctl: unexpected error: the command stopped before its work was done/);
    }
  });

  it('where undici is told not to use SIMD, it compiles its other parser itself and answers the same', () => {
    const reference = traced(['templates', 'get', templateId, '--json'], suite.env);
    const { status, stdout, stderr, seen } = traced(['templates', 'get', templateId, '--json'], { ...suite.env, UNDICI_NO_WASM_SIMD: '1' });
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(reference.stdout));
    expect(JSON.parse(stdout).id).toBe(templateId);
    expect(seen.backgroundCompiles).toBe(0);
    expect(seen.mainThreadCompiles).toBe(1);
    expect(seen.caches.filter((cache) => cache.rejected)).toEqual([]);
  });

  it('without WebAssembly (node --jitless) a network command fails with a message and exit 6, no stack trace', () => {
    const result = spawnSync(process.execPath, ['--jitless', BIN, 'templates', 'get', templateId], { encoding: 'utf8', env: cleanEnv(suite.env) });
    expect(result.status, result.stderr).toBe(6);
    expect(result.stderr).toContain('WebAssembly is not defined');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  });

  it('an offline command compiles no parser at all', () => {
    const { status, stderr, seen } = traced(['formula', 'check', 'NIR/(R+eps)']);
    expect(status, stderr).toBe(0);
    expect(seen.backgroundCompiles + seen.mainThreadCompiles).toBe(0);
    expect(seen.caches.map((cache) => basename(cache.file))).toEqual(['main.cjs']);
    expect(seen.caches[0]!.rejected).toBe(false);
  });
});
