// Start-up cost of the offline formula checker, as a ratio against bare `node -e 0` measured
// in the same run (interleaved, so machine noise hits both alike).
// Target: ≤ 1.5×, goal 1.2×. Also `reportctl --help`, which must stay as light, and the
// checker run without bin/reportctl.js's V8 code cache, to show what the cache saves.
// Run: npm run build && node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/reportctl.js', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.cjs', import.meta.url));
const runs = Number(process.argv[2] ?? 40);
const commands = {
  baseline: [process.execPath, ['-e', '0']],
  'formula check': [process.execPath, [bin, 'formula', 'check', 'NIR/(R+eps)']],
  '--help': [process.execPath, [bin, '--help']],
  // The same file required plainly, without the bin's V8 code cache: what the cache saves.
  'formula check, no code cache': [process.execPath, [main, 'formula', 'check', 'NIR/(R+eps)']],
};

function once([command, args]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const command of Object.values(commands)) once(command); // warm the file cache
for (let i = 0; i < runs; i++) {
  for (const [name, command] of Object.entries(commands)) samples[name].push(once(command));
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const base = median(samples.baseline);
console.log(`start-up, median of ${runs} interleaved runs`);
console.log(`  node -e 0                               ${base.toFixed(1)} ms  1.00×`);
let pass = true;
for (const name of Object.keys(commands).filter((name) => name !== 'baseline')) {
  const ratio = median(samples[name]) / base;
  const verdict = ratio <= 1.2 ? 'goal met' : ratio <= 1.5 ? 'target met' : 'OVER TARGET';
  if (ratio > 1.5 && !name.includes('no code cache')) pass = false;
  console.log(`  reportctl ${name.padEnd(29)} ${median(samples[name]).toFixed(1)} ms  ${ratio.toFixed(2)}×  (${verdict}; target ≤ 1.5×, goal ≤ 1.2×)`);
}
process.exitCode = pass ? 0 : 1;
