// Which cache serves start-up best on this Node version: the bin's V8 code caches (made by the
// first run on this Node, bin/code-cache.js) against none, and Node's own compile cache
// (module.enableCompileCache, Node >= 22.1) for what loads from node_modules, each as a ratio
// against bare `node -e 0` measured in the same run (interleaved), all in the same clean
// environment (bench/clean-env.mjs).
// Target: ≤ 1.5×, goal 1.2×. Also `reportctl --help`, which must stay as light, and the
// checker run with caching off (REPORTCTL_NO_CACHE=1), to show what the caches save.
// On Node ≥ 22.1, `doctor` (which loads undici, conf and chalk) with and without Node's compile
// cache for those packages: what informs the bin's choice to use it on 24 and later only.
// Run: npm run build && node bench/compile-cache.mjs [runs]   (with each Node version first on PATH)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const bin = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
const runs = Number(process.argv[2] ?? 40);
const check = ['formula', 'check', 'NIR/(R+eps)'];
// A service that is not there: doctor fails at once, after loading its packages.
const doctor = ['doctor', '--base-url', 'http://127.0.0.1:9', '--api-key', 'x'];
// The caches in a folder of this run's, made by the warm-up run: as the bin uses them
// (REPORTCTL_CACHE_DIR), and Node's forced on (NODE_COMPILE_CACHE).
const cacheFolder = mkdtempSync(join(tmpdir(), 'reportctl-compile-cache-'));
const compileCache = typeof Module.enableCompileCache === 'function' ? cacheFolder : null;
const asShipped = { REPORTCTL_CACHE_DIR: cacheFolder };
const withCache = { ...asShipped, NODE_COMPILE_CACHE: join(cacheFolder, 'forced') };
const noCompileCache = { ...asShipped, NODE_DISABLE_COMPILE_CACHE: '1' };
// [arguments, environment, exit status, held to the target]
const commands = {
  baseline: [['-e', '0'], {}, 0, false],
  'formula check': [[bin, ...check], asShipped, 0, true],
  '--help': [[bin, '--help'], asShipped, 0, true],
  // Caching off: what the caches save.
  'formula check, no code cache': [[bin, ...check], { REPORTCTL_NO_CACHE: '1' }, 0, false],
  ...(compileCache === null
    ? {}
    : {
        'doctor (service down), Node cache': [[bin, ...doctor], withCache, 1, false],
        'doctor, no Node compile cache': [[bin, ...doctor], noCompileCache, 1, false],
      }),
};

function once([args, env, status]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore', env: cleanEnv(env) });
  if (result.status !== status) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const command of Object.values(commands)) once(command); // warm the file cache (and Node's compile cache)
for (let i = 0; i < runs; i++) {
  for (const [name, command] of Object.entries(commands)) samples[name].push(once(command));
}
rmSync(cacheFolder, { recursive: true, force: true });
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const base = median(samples.baseline);
console.log(`start-up on Node ${process.version}, median of ${runs} interleaved runs`);
console.log(`  ${cleanEnvNote()}`);
console.log(`  ${'node -e 0'.padEnd(45)} ${base.toFixed(1)} ms  1.00×`);
let pass = true;
for (const [name, [, , , held]] of Object.entries(commands).filter(([name]) => name !== 'baseline')) {
  const ratio = median(samples[name]) / base;
  const verdict = !held ? '' : `  (${ratio <= 1.2 ? 'goal met' : ratio <= 1.5 ? 'target met' : 'OVER TARGET'}; target ≤ 1.5×, goal ≤ 1.2×)`;
  if (held && ratio > 1.5) pass = false;
  console.log(`  reportctl ${name.padEnd(35)} ${median(samples[name]).toFixed(1)} ms  ${ratio.toFixed(2)}×${verdict}`);
}
process.exitCode = pass ? 0 : 1;
