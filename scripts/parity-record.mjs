// Records the project's own parity fixture (test/fixtures/parity/) against a fresh `serve`:
// `npm test` replays it, so a change to serve's answers shows up as a parity difference.
// Run: npm run parity:record (builds first). The recording's ignore.txt is kept.
// serve runs at the specification's limits (120 reads, 30 writes a minute), as a real service
// does, so the recording holds no finding against them: the run waits about a minute for the
// write window, as a live run does. Its account holds queues, runs and analyses, and the run
// has another account's key and a sub-user's, so every step is recorded.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const BIN = 'bin/reportctl.js';
const RECORDING = 'test/fixtures/parity';
/** What the target account holds, as the parity tests' target does (`admin seed` fixtures). */
const HELD = 'test/fixtures/parity-account.json';

const dir = mkdtempSync(join(tmpdir(), 'reportctl-parity-record-'));
const db = join(dir, 'service.db');
const admin = (...args) => JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...args, '--db', db, '--json'], { encoding: 'utf8' }));
const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [first] = await createInterface({ input: serve.stdout })[Symbol.asyncIterator]().next().then(({ value }) => [value]);
  const { url } = JSON.parse(first);
  const owner = admin('accounts', 'create');
  const other = admin('accounts', 'create');
  const subUser = admin('keys', 'create', '--account', owner.accountId, '--sub-user', 'field-technician');
  admin('seed', '--account', owner.accountId, '--file', HELD);
  const keys = ['--api-key', owner.apiKey, '--other-account-key', other.apiKey, '--sub-user-key', subUser.apiKey];
  execFileSync(process.execPath, [BIN, 'parity', '--base-url', url, ...keys, '--record', RECORDING], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`recorded ${RECORDING}`);
} catch (error) {
  process.exitCode = 1;
  console.error(error instanceof Error ? error.message : String(error));
} finally {
  serve.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
