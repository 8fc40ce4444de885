// What `--jq`'s first call costs, and how much of it is compiling jq's WebAssembly, on the Node
// running this script. Each figure is the median over fresh processes (CPU of all threads, so
// V8's background compiles count):
// - jq-web as published: require('jq-web'), then the two runs a command makes (the expression's
//   check, then the filter), with V8's default tiers;
// - the steps src/cli/output/jq-engine.ts takes, one by one: jq.js read and compiled, jq.wasm
//   read and compiled (lazily, Liftoff only, as the engine does; and eagerly with V8's default
//   tiers, what a whole compile costs), the instance and its runtime, the two runs;
// - the command: `formula check` with and without `--jq .valid`, paired.
// Run: npm run build && node bench/jq-start.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const runs = Number(process.argv[2] ?? 11);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}bin/reportctl.js`;

/** Each step's CPU (ms, all threads) in a fresh process; the script prints a JSON object of them. */
const PUBLISHED = `
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const start = cpu();
require(${JSON.stringify(`${root}node_modules/jq-web`)}).then((jq) => {
  const ready = cpu();
  try { jq.raw('', '.valid', []); } catch {}
  jq.raw('{"valid":true}', '.valid', ['-c']);
  const ran = cpu();
  // V8 goes on optimising in the background: what the process spent by the time it would exit a moment later.
  setTimeout(() => console.log(JSON.stringify({ 'load and instantiate': ready - start, 'two runs': ran - ready, 'background, 300 ms later': cpu() - ran })), 300);
});`;

const STEPS = `
const fs = require('node:fs'), vm = require('node:vm'), v8 = require('node:v8'), { createRequire } = require('node:module');
const eager = process.argv[1] === 'eager';
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const steps = {}; let last = cpu();
const step = (name) => { const now = cpu(); steps[name] = now - last; last = now; };
const dir = ${JSON.stringify(`${root}node_modules/jq-web/`)};
const source = fs.readFileSync(dir + 'jq.js', 'utf8').replace('if (c) outBuffer.push(c)', 'Module.jqStdout(c)').replace('if (c) errBuffer.push(c)', 'Module.jqStderr(c)');
const factory = vm.compileFunction(source.slice(0, source.indexOf("\\nif (typeof exports === 'object' && typeof module === 'object') {")) + '\\nreturn jq;', ['require', '__filename', '__dirname'])(createRequire(dir + 'jq.js'), dir + 'jq.js', dir);
step('jq.js read and compiled');
const bytes = fs.readFileSync(dir + 'jq.wasm');
step('jq.wasm read');
const LIFTOFF = '--liftoff-only --no-wasm-dynamic-tiering --no-wasm-tier-up';
if (eager) v8.setFlagsFromString('--no-wasm-lazy-compilation'); else v8.setFlagsFromString(LIFTOFF);
const module = new WebAssembly.Module(bytes);
step(eager ? 'jq.wasm compiled whole, default tiers' : 'jq.wasm compiled (lazily, Liftoff only)');
factory({ instantiateWasm(imports, receive) { receive(new WebAssembly.Instance(module, imports), module); return {}; }, jqStdout() {}, jqStderr() {}, print() {}, printErr() {} }).then((jq) => {
  step('instance and runtime');
  try { jq.raw('', '.valid', ['-c']); } catch {}
  step('first run (the check)');
  jq.raw('{"valid":true}', '.valid', ['-c']);
  step('second run (the filter)');
  setTimeout(() => { step('background, 300 ms later'); console.log(JSON.stringify(steps)); }, 300);
});`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function medians(script, args = []) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, ['-e', script, ...args], { encoding: 'utf8', env: cleanEnv() });
    if (result.status !== 0) throw new Error(result.stderr);
    samples.push(JSON.parse(result.stdout));
  }
  return Object.fromEntries(Object.keys(samples[0]).map((key) => [key, median(samples.map((sample) => sample[key]))]));
}

/** CPU of a whole process (perf's task-clock, all threads). */
function cpuOf(args) {
  const result = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', process.execPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv({ REPORTCTL_CACHE_DIR: cacheDir }) });
  return Number(/^([\d.]+),msec,task-clock/m.exec(result.stderr)?.[1]);
}
const cacheDir = `${root}.bench-tmp/jq-start-cache`;

console.log(`--jq's first call, node ${process.version}, median of ${runs} fresh processes (CPU ms, all threads)`);
console.log(`  ${cleanEnvNote()}`);
const print = (title, figures) => {
  console.log(title);
  for (const [name, ms] of Object.entries(figures)) console.log(`    ${name.padEnd(42)} ${ms.toFixed(1).padStart(7)}`);
  console.log(`    ${'all'.padEnd(42)} ${Object.values(figures).reduce((a, b) => a + b, 0).toFixed(1).padStart(7)}`);
};
print('  jq-web as published (default tiers):', medians(PUBLISHED));
print('  the engine, step by step:', medians(STEPS));
print('  the same, jq.wasm compiled whole with V8\'s default tiers:', medians(STEPS, ['eager']));
const formula = [bin, 'formula', 'check', 'NIR/(R+eps)'];
cpuOf(formula);
cpuOf([...formula, '--jq', '.valid']);
const pairs = Array.from({ length: runs }, () => [cpuOf(formula), cpuOf([...formula, '--jq', '.valid'])]);
console.log(`  the command: formula check ${median(pairs.map(([a]) => a)).toFixed(1)} ms, with --jq .valid ${median(pairs.map(([, b]) => b)).toFixed(1)} ms (+${median(pairs.map(([a, b]) => b - a)).toFixed(1)} ms, paired)`);
