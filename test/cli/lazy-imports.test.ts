// Across verbs: each command loads only the modules it needs (what a cold start pays for).
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { api, closedUrl, serverForSuite, tempDir } from '../helpers/server.js';
import { spawnCliInPty } from '../helpers/pty.js';
import { createTemplate } from '../helpers/http.js';
import { cancelRun, createQueue, enqueueRun } from '../../src/admin/operations.js';
import { openStore } from '../../src/server/open-store.js';

const HEAVY = ['undici', 'fastify', 'better-sqlite3', '@inquirer', 'ora', 'zod', 'conf', 'cli-table3', '@resvg', 'diff/', 'jq-web', 'vscode-'];

/** Every module URL the command resolved, recorded by a loader hook. */
function modulesLoadedBy(args: string[], env: Record<string, string> = {}): string[] {
  return requiresBy(args, env).map(([url]) => url);
}

/** Every module the command resolved, as [URL, URL of the file that asked for it]. */
function requiresBy(args: string[], env: Record<string, string> = {}): Array<[url: string, from: string]> {
  const probe = moduleProbe();
  const result = spawnSync(process.execPath, ['--require', probe.register, BIN, ...args], {
    encoding: 'utf8',
    env: cleanEnv(env),
  });
  expect(result.status, result.stderr).toBe(0);
  return probe.requires();
}

/** A file to --require that records every module a process resolves, and what it recorded. */
function moduleProbe(): { register: string; requires(): Array<[url: string, from: string]> } {
  const dir = tempDir();
  const log = join(dir, 'modules.log');
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.cjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + ' ' + context.parentURL + '\\n');
  return result;
}`,
  );
  // import() goes through the ESM hook; require() (zod, undici, fastify, better-sqlite3) is
  // seen by wrapping CommonJS loading.
  writeFileSync(
    register,
    `const { register, Module } = require('node:module');
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
register(${JSON.stringify(pathToFileURL(hooks).href)});
// The build's own files compiled from V8's cache (bin/code-cache.js) pass no loader: seen here.
const codeCache = require(${JSON.stringify(join(dirname(BIN), 'code-cache.js'))});
const loadCompiled = codeCache.loadCompiled;
codeCache.loadCompiled = function (file) {
  appendFileSync(${JSON.stringify(log)}, pathToFileURL(file).href + ' -\\n');
  return loadCompiled.apply(this, arguments);
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try {
    appendFileSync(${JSON.stringify(log)}, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + ' ' + (parent?.filename ? pathToFileURL(parent.filename).href : '-') + '\\n');
  } catch {}
  return loaded;
};
`,
  );
  writeFileSync(log, '');
  return {
    register,
    requires: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ') as [string, string]),
  };
}

describe('heavy modules load lazily', () => {
  it.each([[['formula', 'check', 'NIR/(R+eps)']], [['--help']], [['formula', 'check', '--help']]])(
    'reportctl %j loads none of the heavy packages',
    (args) => {
      const loaded = modulesLoadedBy(args);
      // commander's own require, from inside dist/main.cjs: the hook sees what the CLI loads
      // (the bin compiles that file itself, from V8's code cache, so the file is not listed).
      expect(loaded.some((url) => url.endsWith('node:events'))).toBe(true);
      expect(loaded.filter((url) => url.includes('/dist/embedded.cjs') || url.includes('/dist/vendor-') || url.includes('/dist/checks-'))).toEqual([]);
      for (const name of HEAVY) {
        expect(loaded.filter((url) => url.includes(`/node_modules/${name}`)), name).toEqual([]);
      }
      // Builtins that pull in networking and streams load on first use too (scripts/build.mjs).
      expect(loaded.filter((url) => /node:(child_process|fs\/promises)$/.test(url))).toEqual([]);
    },
  );

  it('a lazy builtin is the real one once a command calls it', () => {
    // `help reference --man DIR` writes its pages through node:fs/promises.
    const loaded = modulesLoadedBy(['help', 'reference', '--man', tempDir()]);
    expect(loaded.some((url) => url.endsWith('node:fs/promises'))).toBe(true);
  });

  it('the hook does see them when a command needs them (the check above is not vacuous)', () => {
    const loaded = modulesLoadedBy(['templates', 'validate', '--help']);
    expect(loaded.some((url) => url.includes('/node_modules/'))).toBe(false);
    // The rasteriser's native binary only for a PNG.
    const dir = tempDir();
    const template = join(dir, 'template.json');
    writeFileSync(template, JSON.stringify({ name: 'lazy', layouts: { portrait: { elements: [] } } }));
    const svg = modulesLoadedBy(['templates', 'preview', '--file', template, '--out', join(dir, 'page.svg')]);
    expect(svg.filter((url) => url.includes('/node_modules/@resvg'))).toEqual([]);
    const png = modulesLoadedBy(['templates', 'preview', '--file', template, '--out', join(dir, 'page.png')]);
    expect(png.some((url) => url.includes('/node_modules/@resvg/resvg-js'))).toBe(true);
    // jq only with --jq: its files are found through dist/import-package.cjs (and read, not loaded as modules).
    expect(modulesLoadedBy(['formula', 'check', 'NIR', '--json']).filter((url) => url.includes('/dist/import-package.cjs'))).toEqual([]);
    expect(modulesLoadedBy(['formula', 'check', 'NIR', '--jq', '.valid']).some((url) => url.includes('/dist/import-package.cjs'))).toBe(true);
    const withDb = modulesLoadedBy(['admin', 'accounts', 'list', '--db', ':memory:', '--json']);
    expect(withDb.some((url) => url.includes('/node_modules/better-sqlite3'))).toBe(true);
    expect(withDb.some((url) => url.includes('/dist/embedded.cjs'))).toBe(true);
  });

  it("the language server's packages load for `lsp` only", () => {
    const probe = moduleProbe();
    const message = (body: object) => {
      const text = JSON.stringify({ jsonrpc: '2.0', ...body });
      return `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
    };
    const input = message({ id: 1, method: 'shutdown' }) + message({ method: 'exit' });
    const result = spawnSync(process.execPath, ['--require', probe.register, BIN, 'lsp', '--offline'], { encoding: 'utf8', input, env: cleanEnv() });
    expect(result.status, result.stderr).toBe(0);
    const loaded = probe.requires().map(([url]) => url);
    expect(loaded.some((url) => url.includes('/node_modules/vscode-languageserver/'))).toBe(true);
    expect(modulesLoadedBy(['templates', 'validate', '--offline', ids.file]).filter((url) => url.includes('/node_modules/vscode-'))).toEqual([]);
  });

  it('admin commands do not load the HTTP framework (scripts/build.mjs)', () => {
    const loaded = modulesLoadedBy(['admin', 'accounts', 'create', '--db', ':memory:', '--json']);
    expect(loaded.some((url) => url.includes('/node_modules/better-sqlite3'))).toBe(true);
    expect(loaded.filter((url) => /\/node_modules\/(fastify|@fastify|avvio|find-my-way)\//.test(url))).toEqual([]);
    // fastify is bundled into dist/vendor-fastify.cjs, read on the first call of its factory.
    expect(loaded.filter((url) => url.includes('/dist/vendor-fastify.cjs'))).toEqual([]);
    // What fastify requires as it loads would show that it ran.
    expect(loaded.filter((url) => /node:(https|http2|dns|perf_hooks)$/.test(url))).toEqual([]);
  });
});

/**
 * One `reportctl serve` for the commands that need a service; what they read is set up over its
 * API and with the admin operations on its database file, in this process.
 */
const suite = serverForSuite();
const ids = { template: '', run: '', file: '' };
beforeAll(async () => {
  const presets = await api(suite.server, 'GET', '/api/v2/templates/presets', { key: suite.account.apiKey });
  const seed = (presets.body as { data: Array<{ seedPayload: Record<string, unknown> }> }).data[0]!.seedPayload;
  ids.file = join(tempDir(), 'template.json');
  writeFileSync(ids.file, JSON.stringify({ ...seed, name: 'bundled' }));
  ids.template = (await createTemplate(suite.server, suite.account.apiKey, { ...seed, name: 'bundled' })).id;
  const store = openStore(suite.server.db);
  try {
    const queue = createQueue(store, suite.account.accountId, 'q', ['lot-1:counting']);
    ids.run = cancelRun(store, enqueueRun(store, queue.id, {}).id).id;
  } finally {
    store.close();
  }
});

describe('network commands load their packages from the bundle', () => {

  // Everything the client path needs is in dist/ (scripts/build.mjs): a file read from
  // node_modules at run time is a package the bundle should hold, or one it lost.
  it.each([
    [['templates', 'list'], ['templatePage']],
    [['templates', 'get', 'TEMPLATE'], ['template']],
    // The document checked before it is sent, then the answer.
    [['templates', 'create', '--file', 'FILE'], ['templateBody', 'template']],
    [['catalogs', 'report-types'], ['reportTypesCatalog']],
    [['queue-runs', 'list'], ['queueRunPage']],
    [['queue-runs', 'watch', 'RUN'], ['queueRunPage']],
  ])('reportctl %j reads no file from node_modules', (args, checks) => {
    const named = { TEMPLATE: ids.template, RUN: ids.run, FILE: ids.file } as Record<string, string>;
    const loaded = requiresBy(
      args.map((word) => named[word] ?? word),
      suite.env,
    );
    // Not vacuous: the bundle's undici file ran, and asked for the builtins undici needs.
    expect(loaded.some(([url]) => url.endsWith('/dist/vendor-undici.cjs'))).toBe(true);
    expect(loaded.some(([url, from]) => url.endsWith('node:net') && from.endsWith('/dist/vendor-undici.cjs'))).toBe(true);
    // The generated checks the command reads with, and not the others.
    expect(loaded.filter(([url]) => url.includes('/dist/checks-')).map(([url]) => /checks-(\w+)\.cjs$/.exec(url)?.[1])).toEqual(checks);
    expect(loaded.filter(([url, from]) => url.includes('/node_modules/') || from.includes('/node_modules/'))).toEqual([]);
    // undici's HTTP/2 client loads on first use only (scripts/build.mjs): the service speaks HTTP/1.
    expect(loaded.filter(([url]) => url.endsWith('node:http2'))).toEqual([]);
    // Nor the file that import()s ESM-only packages (chalk, conf, ...): none is needed here.
    expect(loaded.filter(([url]) => url.endsWith('/dist/import-package.cjs'))).toEqual([]);
  });
});

describe('on a terminal, the spinner loads only when progress is shown', () => {
  /** Whether `reportctl ARGS` on a terminal (stdin, stdout and stderr a pty) loaded ora. */
  async function loadsOra(args: string[], env: Record<string, string>): Promise<boolean> {
    const probe = moduleProbe();
    const pty = spawnCliInPty(args, { env: { ...env, NODE_OPTIONS: `--require ${probe.register}` } });
    try {
      await pty.exited;
    } finally {
      pty.kill();
    }
    const loaded = probe.requires();
    // Not vacuous: the probe ran in the command's process.
    expect(loaded.some(([url]) => url.endsWith('/dist/vendor-undici.cjs'))).toBe(true);
    return loaded.some(([url]) => url.includes('/node_modules/ora/'));
  }

  it('templates list, answered at once, does not load ora', { timeout: 30_000 }, async () => {
    expect(await loadsOra(['templates', 'list'], suite.env)).toBe(false);
  });

  it('but does when the spinner counts a retry down (a refused connection)', { timeout: 30_000 }, async () => {
    expect(await loadsOra(['templates', 'list'], { ...suite.env, REPORTCTL_BASE_URL: await closedUrl() })).toBe(true);
  });
});

describe('a command piped to another does not open stdin it never reads', () => {
  // process.stdin is a getter that creates the stream (and its machinery) on first read.
  const probe = join(tempDir(), 'stdin-probe.cjs');
  writeFileSync(
    probe,
    `const real = Object.getOwnPropertyDescriptor(process, 'stdin');
let touched = false;
Object.defineProperty(process, 'stdin', { configurable: true, enumerable: real.enumerable, get() { touched = true; return real.get.call(this); } });
process.on('exit', () => require('node:fs').writeSync(2, '\\nstdin opened: ' + touched + '\\n'));
`,
  );
  const opened = (args: string[], env: Record<string, string> = {}): boolean => {
    const result = spawnSync(process.execPath, ['--require', probe, BIN, ...args], { encoding: 'utf8', env: cleanEnv(env) });
    const verdict = /stdin opened: (true|false)/.exec(result.stderr)?.[1];
    if (verdict === undefined) throw new Error(`the probe did not run: ${result.stderr}`);
    return verdict === 'true';
  };
  it('templates create --file, and templates list', () => {
    expect(opened(['templates', 'create', '--file', ids.file], suite.env)).toBe(false);
    expect(opened(['templates', 'list'], suite.env)).toBe(false);
  });

  it('but it does for --file - (the probe is not vacuous)', () => {
    expect(opened(['formula', 'check', '--file', '-'])).toBe(true);
  });
});
