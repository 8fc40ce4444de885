// The quick benchmarks in one go (about a minute): start-up and formula engine throughput.
// The long ones run on their own: bench/list-all.mjs (~2 min), `npm run soak` (~2 min),
// bench/soak-kill.mjs (~1 min for 20 rounds). Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

let failed = false;
for (const script of ['startup.mjs', 'formula-engine.mjs']) {
  console.log(`\n== ${script}`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
