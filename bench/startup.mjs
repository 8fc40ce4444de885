// Start-up cost of reportctl's commands, each as a ratio against bare `node -e 0` of the same Node.
// Every sample is a pair: `node -e 0`, then the command, back to back, so machine noise hits
// both alike; a command's figure is the median of its pairs' ratios. Both run in the same
// clean environment, without NODE_* and npm_* variables (bench/clean-env.mjs), and every
// command keeps its code caches in a folder of this run's: the warm-up run of each command
// makes them, as a user's first run does.
// - offline: `formula check`, `--help` and `--version` (must stay as light); `formula check`'s
//   first run (an empty cache folder each time: the uncached run plus writing the cache) and a
//   run with caching off (REPORTCTL_NO_CACHE=1), to show what the cache saves and costs;
// - network: templates list/get/create, catalogs report-types, queue-runs list and watch's
//   first poll (of a run already cancelled, so it ends there), against a local `serve` this
//   bench starts on port 0 with an account made by `admin accounts create`;
// - `admin accounts create` on a database file, and `serve` from spawn to its `listening on`;
// - for reference, bench/undici-alone.cjs: undici and one GET with nothing of the CLI, the
//   least any network command could take.
// Peak RSS (VmHWM) comes from separate runs under /usr/bin/time -f %M, so it does not slow the
// timed ones; `serve`'s is read from /proc when it says it is listening.
// Targets (TARGETS below): formula check, --help and --version ≤ 1.4×; templates list, templates
// get and catalogs report-types ≤ 2.3×; a network command's peak RSS ≤ 50 MB. The exit code is 1
// when one is missed (CI runs this and prints it, without failing on it).
// Run: npm run build && node bench/startup.mjs [pairs] [filter,filter...] [--baseline DIR] [--cpu] [--installed PREFIX]
// A filter keeps the commands whose name contains it. --baseline DIR also runs each command
// from another built checkout (a `git worktree` of another commit, or this one built without
// a piece), in turn before and after this one's in every pair, and prints its ratio and the
// median change: with and without, from one run, under the same noise. --cpu times each run's
// CPU (all threads, `perf stat -e task-clock`) instead of its wall time. --installed PREFIX
// times the package installed there (`npm install -g --prefix PREFIX ./reportctl.tgz`, as the
// README says) instead of this checkout's build, on the Node running this script.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const args = process.argv.slice(2);
/** Takes `--name VALUE` out of args. */
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : (args.splice(at, 2)[1] ?? '');
};
const beforeDir = option('--baseline');
const installed = option('--installed');
if (beforeDir !== undefined && !existsSync(join(beforeDir, 'bin', 'reportctl.js'))) {
  console.error('--baseline needs a built checkout: DIR/bin/reportctl.js');
  process.exit(2);
}
if (installed !== undefined && !existsSync(join(installed, 'bin', 'reportctl'))) {
  console.error('--installed needs the prefix of a global install: PREFIX/bin/reportctl');
  process.exit(2);
}
// The installed command is a link (or shim) to the package's bin: run with this Node, as its `#!/usr/bin/env node` would.
const bin = installed === undefined ? fileURLToPath(new URL('../bin/reportctl.js', import.meta.url)) : realpathSync(join(installed, 'bin', 'reportctl'));
// CPU time instead of wall: steadier on a busy machine, blind to work moved to another thread.
const cpuAt = args.indexOf('--cpu');
const cpu = cpuAt >= 0 && args.splice(cpuAt, 1).length === 1;
const runs = Number(args[0] ?? 15);
const filters = args[1]?.split(',');
const wanted = (name) => !filters || filters.some((filter) => name.includes(filter));
const TIME = '/usr/bin/time';

const work = mkdtempSync(join(tmpdir(), 'reportctl-startup-'));
const db = join(work, 'service.db');
const adminDb = join(work, 'admin.db');
let serve;
process.on('exit', () => {
  serve?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
/** Every command's code caches, made by its warm-up run. */
const cacheEnv = { REPORTCTL_CACHE_DIR: join(work, 'cache') };

function must(args, env = cleanEnv(cacheEnv)) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`reportctl ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** `serve` on port 0; resolves with its URL (and peak RSS so far) once it says it listens. */
function startServe(args, from = bin) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [from, 'serve', '--port', '0', '--json', '--no-access-log', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv(cacheEnv) });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ child, ms, url: JSON.parse(out.split('\n')[0]).url, rssMb: peakRssMb(child.pid) });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function peakRssMb(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : NaN;
  } catch {
    return NaN;
  }
}

// The service the network commands talk to: generous limits, one account, one template, one
// cancelled run (so `watch` ends after its first poll).
const ownerOut = must(['admin', 'accounts', 'create', '--db', db, '--template-limit', '1000000', '--json']);
const { accountId, apiKey } = JSON.parse(ownerOut);
const queue = JSON.parse(must(['admin', 'queues', 'create', '--db', db, '--account', accountId, '--name', 'bench', '--step', 'lot-1:counting', '--json']));
const run = JSON.parse(must(['admin', 'queue-runs', 'enqueue', '--db', db, '--queue', queue.id, '--json']));
must(['admin', 'queue-runs', 'cancel', '--db', db, run.id]);
const service = await startServe(['--db', db, '--reads-per-minute', '1000000000', '--writes-per-minute', '1000000000']);
serve = service.child;
const env = cleanEnv({ ...cacheEnv, REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: apiKey, REPORTCTL_CONFIG_DIR: join(work, 'config') });
const presets = JSON.parse(must(['templates', 'presets', '--json'], env));
const templateFile = join(work, 'template.json');
writeFileSync(templateFile, JSON.stringify({ ...presets.data[0].seedPayload, name: 'bench' }));
const templateId = JSON.parse(must(['templates', 'create', '--file', templateFile, '--json'], env)).id;

let firstRuns = 0;
/** A command as a user's first run makes it: an empty cache folder each time. */
const firstRun = () => ({ REPORTCTL_CACHE_DIR: join(work, `first-run-${++firstRuns}`) });

const node = (...args) => ({ command: process.execPath, args });
const undiciAlone = fileURLToPath(new URL('undici-alone.cjs', import.meta.url));
const reportctl = (...args) => ({ command: process.execPath, args: [bin, ...args] });
const formula = ['formula', 'check', 'NIR/(R+eps)'];
const commands = {
  'formula check': reportctl(...formula),
  '--help': reportctl('--help'),
  '--version': reportctl('--version'),
  'formula check, first run': { ...reportctl(...formula), env: firstRun },
  'formula check, no code cache': { ...reportctl(...formula), env: () => ({ REPORTCTL_NO_CACHE: '1' }) },
  // --jq loads jq's WebAssembly on its first call: what a filtered command adds.
  'jq filter of an offline command': reportctl(...formula, '--jq', '.valid'),
  'templates list': reportctl('templates', 'list'),
  'templates get': reportctl('templates', 'get', templateId),
  'templates create': reportctl('templates', 'create', '--file', templateFile),
  'catalogs report-types': reportctl('catalogs', 'report-types'),
  'queue-runs list': reportctl('queue-runs', 'list'),
  'queue-runs watch': reportctl('queue-runs', 'watch', run.id),
  'admin accounts create': reportctl('admin', 'accounts', 'create', '--db', adminDb),
  // The floor under every network command: undici and one GET, no CLI (bench/undici-alone.cjs).
  'undici alone, one GET': node(undiciAlone, templateId),
};
/** The most each may take, as a ratio of `node -e 0`; the other commands are reported only. */
const TARGETS = { 'formula check': 1.4, '--help': 1.4, '--version': 1.4, 'templates list': 2.3, 'templates get': 2.3, 'catalogs report-types': 2.3 };
/** The most a network command may hold at its peak (RSS, MB). */
const NETWORK_RSS = 50;
const network = (name) => /^(templates|catalogs|queue-runs) /.test(name);
const selected = Object.keys(commands).filter(wanted);
const baseline = node('-e', '0');

/** Wall time of one run in ms; with --cpu, the CPU time of all its threads (perf's task-clock). */
function once({ command, args, env: extra }) {
  const runEnv = extra ? { ...env, ...extra() } : env;
  if (cpu) {
    const result = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', command, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: runEnv });
    const ms = Number(/^([\d.]+),msec,task-clock/m.exec(result.stderr ?? '')?.[1]);
    if (result.status !== 0 || !Number.isFinite(ms)) throw new Error(`perf stat ${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return ms;
  }
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: 'ignore', env: runEnv });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Peak RSS in MB: the median of three runs under /usr/bin/time, or NaN without it. */
function peakRss({ command, args, env: extra }) {
  if (!existsSync(TIME)) return NaN;
  const values = [];
  for (let i = 0; i < 3; i++) {
    const result = spawnSync(TIME, ['-f', '%M', command, ...args], { encoding: 'utf8', env: extra ? { ...env, ...extra() } : env, stdio: ['ignore', 'ignore', 'pipe'] });
    values.push(Number(result.stderr.trim().split('\n').at(-1)) / 1024);
  }
  return median(values);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.floor(sorted.length / 4)], sorted[Math.floor((3 * sorted.length) / 4)]];
};

/**
 * The same command run from the --baseline checkout, with a database of its own for admin (an
 * older build refuses a newer schema) and a cache folder of its own (a copy of the same build
 * that sets other V8 flags would otherwise replace this one's caches at every run).
 */
const baselineCache = { REPORTCTL_CACHE_DIR: join(work, 'cache-baseline') };
const before = ({ command, args, env: extra }) => ({
  command,
  args: args.map((arg) => (arg === bin ? join(beforeDir, 'bin', 'reportctl.js') : arg === adminDb ? `${adminDb}.baseline` : arg)),
  env: () => ({ ...baselineCache, ...extra?.() }),
});
// The warm-up: each command's first run makes its code caches (and warms the file cache).
for (const name of selected) once(commands[name]);
if (beforeDir) for (const name of selected) once(before(commands[name]));
const base = [];
const ratios = Object.fromEntries(selected.map((name) => [name, []]));
const walls = Object.fromEntries(selected.map((name) => [name, []]));
const beforeRatios = Object.fromEntries([...selected, 'serve'].map((name) => [name, []]));
const changes = Object.fromEntries([...selected, 'serve'].map((name) => [name, []]));
for (let i = 0; i < runs; i++) {
  for (const name of selected) {
    const b = once(baseline);
    // With a baseline, the two builds take turns going first.
    const earlier = beforeDir && i % 2 === 1 ? once(before(commands[name])) : undefined;
    const ms = once(commands[name]);
    const then = beforeDir ? (earlier ?? once(before(commands[name]))) : undefined;
    base.push(b);
    walls[name].push(ms);
    ratios[name].push(ms / b);
    if (then !== undefined) {
      beforeRatios[name].push(then / b);
      changes[name].push(ms - then);
    }
  }
}
// serve: spawn to its `listening on` line, paired the same way.
let baselineServes = true;
const serveRatios = [];
const serveWalls = [];
const serveRss = [];
// Timed to its first line, so wall time only.
if (wanted('serve') && !cpu) {
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) {
    const b = once(baseline);
    const started = await startServe(['--db', ':memory:']);
    started.child.kill('SIGKILL');
    base.push(b);
    serveWalls.push(started.ms);
    serveRatios.push(started.ms / b);
    serveRss.push(started.rssMb);
    if (beforeDir && baselineServes) {
      // An older build's serve may not take these options: its figures are then left out.
      const then = await startServe(['--db', ':memory:'], join(beforeDir, 'bin', 'reportctl.js')).catch((error) => {
        console.error(`baseline serve left out: ${error.message.split('\n')[0]}`);
        baselineServes = false;
      });
      if (!then) continue;
      then.child.kill('SIGKILL');
      beforeRatios.serve.push(then.ms / b);
      changes.serve.push(started.ms - then.ms);
    }
  }
}

const baseMs = median(base);
const [low, high] = spread(base);
console.log(`start-up${cpu ? ' (CPU time, all threads)' : ''}: median of ${runs} pairs, each command right after a \`node -e 0\`, node ${process.version}`);
console.log(`  ${installed === undefined ? `this checkout's build: ${bin}` : `installed in ${installed}: ${bin}`}`);
console.log(`  ${cleanEnvNote()}`);
if (beforeDir) console.log(`  baseline: ${beforeDir}, each command also run from there in every pair`);
console.log(`  node -e 0: median ${baseMs.toFixed(1)} ms (interquartile ${low.toFixed(1)}–${high.toFixed(1)} ms: the noise)`);
console.log(`  ${'command'.padEnd(30)} ${(cpu ? 'cpu' : 'wall').padStart(8)}  ${'× node'.padStart(6)}  ${'ratio IQR'.padStart(11)}  ${'peak RSS'.padStart(8)}  verdict`);
let pass = true;
const line = (name, wall, values, rss, target, rssTarget, key = name) => {
  const ratio = median(values);
  const [q1, q3] = spread(values);
  const overRss = rssTarget !== undefined && rss > rssTarget;
  const verdict = target === undefined ? '' : ratio > target ? `OVER ${target}×` : `within ${target}×`;
  if ((target !== undefined && ratio > target) || overRss) pass = false;
  console.log(
    `  ${name.padEnd(30)} ${`${wall.toFixed(1)} ms`.padStart(8)}  ${`${ratio.toFixed(2)}×`.padStart(6)}  ${`${q1.toFixed(2)}–${q3.toFixed(2)}`.padStart(11)}  ${Number.isNaN(rss) ? '     n/a' : `${rss.toFixed(0)} MB`.padStart(8)}  ${verdict}${overRss ? ` RSS OVER ${rssTarget} MB` : ''}${compared(key)}`,
  );
};
/** With --baseline: that build's ratio, and this build's time minus its, pair by pair (median and interquartile range). */
const compared = (name) => {
  if (!beforeDir || !changes[name].length) return '';
  const signed = (ms) => `${ms > 0 ? '+' : ''}${ms.toFixed(1)}`;
  const [q1, q3] = spread(changes[name]);
  return `  (baseline ${median(beforeRatios[name]).toFixed(2)}×, ${signed(median(changes[name]))} ms, IQR ${signed(q1)} to ${signed(q3)})`;
};
for (const name of selected) {
  line(name, median(walls[name]), ratios[name], peakRss(commands[name]), TARGETS[name], network(name) ? NETWORK_RSS : undefined);
}
if (serveRatios.length > 0) line('serve (to `listening on`)', median(serveWalls), serveRatios, median(serveRss), undefined, undefined, 'serve');
const targets = Object.entries(TARGETS).map(([name, target]) => `${name} ≤ ${target}×`).join(', ');
console.log(`targets: ${targets}; a network command's peak RSS ≤ ${NETWORK_RSS} MB; the rest are reported`);
process.exitCode = pass ? 0 : 1;
// The service's pipes would keep this process alive.
serve.kill('SIGKILL');
