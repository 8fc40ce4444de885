// Formula engine throughput: checkFormula (scan + parse + rules) against the parse-only
// baselines jsep and mathjs.parse on the same strings. Prints ops/s, ratios and PASS/FAIL
// against the targets; exits 1 on FAIL. Run: node bench/formula-engine.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import jsep from 'jsep';
import { parse as mathParse } from 'mathjs';

const TARGETS = { short: 1_000_000, long: 15_000 };
// ~1 s per measurement in short rounds; the best round counts.
const ROUNDS = 10;
const ROUND_MS = 100;

// Bundle the engine from source, so the bench needs no build step and measures this checkout.
const outDir = mkdtempSync(join(tmpdir(), 'formula-bench-'));
const bundle = join(outDir, 'formula.mjs');
buildSync({
  entryPoints: [fileURLToPath(new URL('../src/formula/index.ts', import.meta.url))],
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
const { checkFormula, parse } = await import(pathToFileURL(bundle).href);
rmSync(outDir, { recursive: true, force: true });

const short = '(NIR - R) / (NIR + R + eps)';
const terms = [
  '2.5 * (NIR - R) / (NIR + 6 * R - 7.5 * B + 1 + eps)',
  '(G - NIR) / (G + NIR + eps)',
  '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
  'sqrt(abs(NIR - RE)) * -0.5',
  '(NIR - RE) / (NIR + R + eps)',
];
let long = '';
for (let i = 0; ; i++) {
  const next = (long === '' ? '' : long + ' + ') + terms[i % terms.length];
  if (next.length > 1900) break;
  long = next;
}
for (const formula of [short, long]) {
  const check = checkFormula(formula);
  if (!check.valid) throw new Error(`bench formula is invalid: ${JSON.stringify(check.errors[0])}`);
  jsep(formula);
  mathParse(formula);
}

let sink = 0;
// Time is CPU time of this process (process.cpuUsage), so other processes on a busy machine
// do not count against us; helper threads (GC, compiler) do, which only makes it stricter.
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function measure(run, source) {
  const timeFor = (iterations) => {
    const started = cpuMs();
    for (let i = 0; i < iterations; i++) sink += run(source);
    return cpuMs() - started;
  };
  // Warm up, and size a batch to ~10 ms so timer reads cost nothing.
  let batch = 1;
  while (timeFor(batch) < 10) batch *= 2;
  timeFor(batch * 20);
  let best = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let iterations = 0;
    let elapsed = 0;
    while (elapsed < ROUND_MS) {
      elapsed += timeFor(batch);
      iterations += batch;
    }
    best = Math.max(best, (iterations / elapsed) * 1000);
  }
  return best;
}

const engines = [
  ['reportctl checkFormula', (s) => (checkFormula(s).valid ? 1 : 0)],
  ['reportctl parse', (s) => (parse(s).ast === null ? 0 : 1)],
  ['jsep (parse only)', (s) => (jsep(s).type === 'BinaryExpression' ? 1 : 0)],
  ['mathjs.parse (parse only)', (s) => (mathParse(s).type === 'OperatorNode' ? 1 : 0)],
];
const results = new Map();
for (const [name, run] of engines) results.set(name, { short: measure(run, short), long: measure(run, long) });

const format = (n) => Math.round(n).toLocaleString('en-US');
const ours = results.get('reportctl checkFormula');
console.log(
  `node ${process.version}; short formula ${short.length} chars, long formula ${long.length} chars; ops per CPU-second, best of ${ROUNDS} rounds`,
);
const [load] = loadavg();
if (load !== undefined && load > availableParallelism()) {
  console.log(`note: load average ${load.toFixed(1)} on ${availableParallelism()} cores; shared caches may still cost a little`);
}
console.log(
  `${'engine'.padEnd(28)}${'short ops/s'.padStart(14)}${'long ops/s'.padStart(14)}${'ours/this short'.padStart(17)}${'ours/this long'.padStart(16)}`,
);
for (const [name, r] of results) {
  const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
  console.log(
    `${name.padEnd(28)}${format(r.short).padStart(14)}${format(r.long).padStart(14)}${ratio(ours.short, r.short).padStart(17)}${ratio(ours.long, r.long).padStart(16)}`,
  );
}
let failed = false;
for (const size of ['short', 'long']) {
  const pass = ours[size] >= TARGETS[size];
  failed ||= !pass;
  console.log(`${pass ? 'PASS' : 'FAIL'} checkFormula ${size}: ${format(ours[size])}/s (target >= ${format(TARGETS[size])}/s)`);
}
if (sink < 0) console.log(sink); // keeps the results observable
if (failed) process.exitCode = 1;
