// What a full `reportctl parity` run costs against a local `serve` at the specification's
// limits (120 reads, 30 writes a minute), its account holding the queues, runs and analyses
// of test/fixtures/parity-account.json: requests to the target, time, and the part of it spent
// waiting for the rate limits, with another account's and a sub-user's key and without them.
// Each run on a fresh serve, so one run's requests do not spend the next one's window; the
// baseline is the run without the keys, measured the same way in the same run.
//
//   node bench/parity-cost.mjs          # about two and a half minutes, most of it the write window
//
// Run `npm run build` first. Not part of `npm test`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin', 'reportctl.js');
const HELD = join(root, 'test', 'fixtures', 'parity-account.json');

/** One parity run against a fresh serve, with or without the optional keys. */
async function run(withKeys) {
  const dir = mkdtempSync(join(tmpdir(), 'reportctl-parity-cost-'));
  const db = join(dir, 'service.db');
  const admin = (...args) => JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...args, '--db', db, '--json'], { encoding: 'utf8' }));
  const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const { url } = JSON.parse((await createInterface({ input: serve.stdout })[Symbol.asyncIterator]().next()).value);
    const owner = admin('accounts', 'create');
    admin('seed', '--account', owner.accountId, '--file', HELD);
    const keys = withKeys ? ['--other-account-key', admin('accounts', 'create').apiKey, '--sub-user-key', admin('keys', 'create', '--account', owner.accountId, '--sub-user', 'tech').apiKey] : [];
    const started = performance.now();
    const result = JSON.parse(execFileSync(process.execPath, [BIN, 'parity', '--base-url', url, '--api-key', owner.apiKey, ...keys, '--json'], { encoding: 'utf8', env: cleanEnv(), stdio: ['ignore', 'pipe', 'ignore'] }));
    return { seconds: (performance.now() - started) / 1000, ...result };
  } finally {
    serve.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`parity against a local serve at 120 reads and 30 writes a minute; ${cleanEnvNote()}`);
const without = await run(false);
const keys = await run(true);
for (const [label, result] of [['without the optional keys', without], ['with --other-account-key and --sub-user-key', keys]]) {
  const steps = result.operations.reduce((sum, row) => sum + row.steps, 0);
  console.log(
    `${label}: ${steps} steps, ${result.requests.target} requests to the target (budget ${result.budget}), ${result.requests.serve} to serve, ` +
      `${result.seconds.toFixed(1)} s of which ${result.waitedSeconds} s waiting; ${result.differences.length} differences, ${result.specification.length} findings`,
  );
}
console.log(`with the keys / without: ${(keys.requests.target / without.requests.target).toFixed(2)}x the requests, ${(keys.seconds / without.seconds).toFixed(2)}x the time`);
