// Which code cache serves start-up best on this Node version: the build's V8 cache for
// dist/main.cjs against Node's own compile cache (module.enableCompileCache, Node >= 22.1),
// each as a ratio against bare `node -e 0` measured in the same run (interleaved), all in the
// same clean environment (bench/clean-env.mjs).
// Target: ≤ 1.5×, goal 1.2×. Also `reportctl --help`, which must stay as light, and the
// checker run without bin/reportctl.js's V8 code cache, to show what the cache saves.
// On Node ≥ 22.1 (module.enableCompileCache), also what informs the bin's choice of caches:
// dist/main.cjs from Node's compile cache instead of the build's, and `doctor` (which loads
// undici, conf and chalk) with and without Node's compile cache for those packages. The bin
// uses Node's cache on 24 and later only (see there).
// Run: npm run build && node bench/compile-cache.mjs [runs]   (with each Node version first on PATH)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const bin = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.cjs', import.meta.url));
const runs = Number(process.argv[2] ?? 40);
const check = ['formula', 'check', 'NIR/(R+eps)'];
// A service that is not there: doctor fails at once, after loading its packages.
const doctor = ['doctor', '--base-url', 'http://127.0.0.1:9', '--api-key', 'x'];
// Node's compile cache in a folder of this run's, filled by the warm-up run: for the bin's own
// choice (TMPDIR), and forced on (NODE_COMPILE_CACHE).
const compileCache = typeof Module.enableCompileCache === 'function' ? mkdtempSync(join(tmpdir(), 'reportctl-compile-cache-')) : null;
const asShipped = compileCache === null ? {} : { TMPDIR: compileCache };
const withCache = { NODE_COMPILE_CACHE: join(compileCache ?? '', 'forced') };
const noCompileCache = { NODE_DISABLE_COMPILE_CACHE: '1' };
// [arguments, environment, exit status, held to the target]
const commands = {
  baseline: [['-e', '0'], {}, 0, false],
  'formula check': [[bin, ...check], asShipped, 0, true],
  '--help': [[bin, '--help'], asShipped, 0, true],
  // The same file required plainly, without the bin's V8 code cache: what the cache saves.
  'formula check, no code cache': [[main, ...check], noCompileCache, 0, false],
  ...(compileCache === null
    ? {}
    : {
        'formula check, Node cache only': [[main, ...check], withCache, 0, false],
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
if (compileCache !== null) rmSync(compileCache, { recursive: true, force: true });
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
