// What the benchmarks share to drive a built `reportctl serve` child and its database.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/** The URL `serve --json` prints as its first line; rejects if the child exits first. */
export function servedUrl(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).url);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

/** `reportctl admin ... --db DB --json` with the given bin, parsed; throws on failure. */
export function adminOf(bin, db) {
  return (...args) => {
    const result = spawnSync(process.execPath, [bin, 'admin', ...args, '--db', db, '--json'], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`admin ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
}

/**
 * `reportctl serve --port 0 --db DB --json` plus `flags`, stopped (and `work` removed) when
 * this process exits or `cleanUp` is called; `stderr` is 'pipe' or 'inherit'.
 */
export function spawnServe(bin, db, work, flags, stderr) {
  const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--json', ...flags], {
    stdio: ['ignore', 'pipe', stderr],
  });
  let cleanedUp = false;
  const cleanUp = () => {
    if (cleanedUp) return;
    cleanedUp = true;
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  };
  process.on('exit', cleanUp);
  return { server, cleanUp };
}
