// Records the project's own parity fixture (test/fixtures/parity/) against a fresh `serve`:
// `npm test` replays it, so a change to serve's answers shows up as a parity difference.
// Run: npm run parity:record (builds first). The recording's ignore.txt is kept.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const BIN = 'bin/reportctl.js';
const RECORDING = 'test/fixtures/parity';
const dir = mkdtempSync(join(tmpdir(), 'reportctl-parity-record-'));
const db = join(dir, 'service.db');
// Limits the scenario never reaches: the recording's policy is what a replay's serve runs
// under, so the replay in `npm test` is not paced (validate-formula counts as a write).
const limits = ['--reads-per-minute', '1000', '--writes-per-minute', '1000'];
const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log', ...limits], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [first] = await createInterface({ input: serve.stdout })[Symbol.asyncIterator]().next().then(({ value }) => [value]);
  const { url } = JSON.parse(first);
  const { apiKey } = JSON.parse(execFileSync(process.execPath, [BIN, 'admin', 'accounts', 'create', '--db', db, '--json'], { encoding: 'utf8' }));
  execFileSync(process.execPath, [BIN, 'parity', '--base-url', url, '--api-key', apiKey, '--record', RECORDING], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`recorded ${RECORDING}`);
} catch (error) {
  process.exitCode = 1;
  console.error(error instanceof Error ? error.message : String(error));
} finally {
  serve.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
