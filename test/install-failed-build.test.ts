// Across modules: the install of a clone and of the packed tarballs when the Node 20 driver's build fails.
// A failed build of the optional Node 20 SQLite driver never deletes a tracked file, and the next
// good install works (docs/storage.md, "When the compile fails"): real `npm ci` and `npm install
// -g` runs, the compile made to fail by a nodedir that points nowhere.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedUrl, tempDir } from './helpers/server.js';

const root = new URL('..', import.meta.url).pathname;
const major = Number(process.versions.node.split('.')[0]);
/** better-sqlite3 12 is installed, and built, on Node.js 20 only. */
const builds = major < 22;
/**
 * The checkout's own `npm ci` has put every locked package in npm's cache: use it. (Test
 * processes run without NODE_EXTRA_CA_CERTS, vitest.config.ts, which a registry behind a
 * proxy can need.)
 */
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];
const gitIdentity = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  // The npm of the Node.js running the tests, with that Node.js first on PATH.
  const path = `${dirname(process.execPath)}:${process.env.PATH}`;
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...gitIdentity, PATH: path, ...env } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The environments of a failing and of a good install. Neither reaches the network: the
 * prebuilt-binary host is a closed port. The good one finds better-sqlite3's binary as a local
 * prebuild, made from the one this checkout compiled, rather than compiling for minutes.
 */
async function installs(): Promise<{ failing: Record<string, string>; good: Record<string, string> }> {
  const host = { npm_config_better_sqlite3_binary_host: await closedUrl() };
  const failing = { ...host, npm_config_nodedir: join(tempDir(), 'no-node-headers') };
  if (!builds) return { failing, good: host };
  const driver = join(root, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(driver, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = tempDir('reportctl-prebuilds-');
  const staging = tempDir();
  mkdirSync(join(staging, 'build/Release'), { recursive: true });
  cpSync(join(driver, 'build/Release/better_sqlite3.node'), join(staging, 'build/Release/better_sqlite3.node'));
  const tarball = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  expect(run('tar', ['-czf', join(prebuilds, tarball), '-C', staging, 'build'], staging).status).toBe(0);
  return { failing, good: { ...host, npm_config_better_sqlite3_local_prebuilds: prebuilds } };
}

/** Whether reportctl's Node 20 driver opens a database from `dir`: "ok", or why not. */
function driverIn(dir: string): string {
  const probe = "try { new (require('reportctl-sqlite-node20'))(':memory:').close(); console.log('ok') } catch (error) { console.log(error.code ?? error.message) }";
  return run(process.execPath, ['-e', probe], dir).output.trim();
}

describe('a failed compile of the Node 20 SQLite driver', () => {
  it('leaves a clone as it was, and the next npm ci installs the driver', async () => {
    // The checkout's dependency layout (manifest, lock, .npmrc, the local package) in a git
    // repository of its own. The root's scripts go: its prepare is the build, which needs the
    // development dependencies, left out (--omit=dev) to keep this to seconds.
    const clone = tempDir('reportctl-clone-');
    for (const entry of ['package-lock.json', '.npmrc', 'packages']) cpSync(join(root, entry), join(clone, entry), { recursive: true });
    const { scripts: _scripts, ...manifest } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(clone, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'clone']]) expect(run('git', args, clone).status).toBe(0);
    const changed = () => run('git', ['status', '--porcelain', '--untracked-files=no'], clone).output;
    const env = await installs();

    const failed = run('npm', ['ci', ...NPM_FLAGS, '--omit=dev'], clone, env.failing);
    expect(failed.status, failed.output).toBe(0);
    // The compile did fail (npm removed the driver), and nothing tracked went with it.
    expect(existsSync(join(clone, 'node_modules/better-sqlite3'))).toBe(false);
    expect(changed()).toBe('');

    const good = run('npm', ['ci', ...NPM_FLAGS, '--omit=dev'], clone, env.good);
    expect(good.status, good.output).toBe(0);
    expect(changed()).toBe('');
    expect(driverIn(clone)).toBe(builds ? 'ok' : 'MODULE_NOT_FOUND');
  }, 240_000);

  it('leaves the two tarballs as they were, and the next global install has a working serve', async () => {
    // `npm run pack` in a copy of the checkout (its node_modules borrowed), then the README's install.
    const copy = tempDir('reportctl-pack-');
    const left = /^(node_modules|dist|\.git|test|bench|coverage|\.dist-.*|\.bench-tmp|.*\.tgz)$/;
    for (const entry of readdirSync(root).filter((name) => !left.test(name))) cpSync(join(root, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const packed = run(process.execPath, ['scripts/pack.mjs'], copy);
    expect(packed.status, packed.output).toBe(0);
    const sums = () => ['reportctl.tgz', 'reportctl-sqlite-node20.tgz'].map((file) => createHash('sha256').update(readFileSync(join(copy, file))).digest('hex'));
    const before = sums();
    const prefix = tempDir('reportctl-prefix-');
    const install = (env: Record<string, string>) => run('npm', ['install', ...NPM_FLAGS, '-g', '--prefix', prefix, '--allow-scripts=better-sqlite3', './reportctl.tgz'], copy, env);
    const serve = () => run(join(prefix, 'bin/reportctl'), ['serve', '--db', ':memory:', '--port', '0', '--no-access-log', '--exec', 'true'], copy);
    const env = await installs();

    const failed = install(env.failing);
    expect(failed.status, failed.output).toBe(0);
    expect(sums()).toEqual(before);
    // Everything but serve and admin works without the driver.
    expect(run(join(prefix, 'bin/reportctl'), ['formula', 'check', 'NIR - R'], copy).status).toBe(0);
    if (builds) expect(serve().output).toContain('is not installed or was not built');

    const good = install(env.good);
    expect(good.status, good.output).toBe(0);
    expect(sums()).toEqual(before);
    const served = serve();
    expect(served.status, served.output).toBe(0);
  }, 240_000);
});
