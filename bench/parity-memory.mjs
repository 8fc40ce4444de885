// `reportctl parity` against a hostile target: a proxy in front of a fresh `serve` that pads
// every JSON answer with N MiB (issue 50, row 3). Prints parity's peak memory (VmHWM, read from
// /proc while it runs), its exit status, its time and the templates it left on the account,
// against a baseline measured the same way in the same run: the same parity with no padding.
//
//   node bench/parity-memory.mjs                       # 60 MiB of padding (and the baseline)
//   node bench/parity-memory.mjs --pad-mib 12          # 12 MiB: answers that fit, a total that does not
//   node bench/parity-memory.mjs --bin /tmp/old/bin/reportctl.js   # another build's parity
//   node bench/parity-memory.mjs --pad-mib 12 --after-create   # padding once a template exists
//
// Options: --pad-mib N (default 60), --after-create (pad only once a create was answered, so
// the run has templates to delete), --bin FILE (the reportctl to measure; serve is always this
// tree's), --cap-mib N (default 6000: a parity past it is stopped and said so). Linux only (/proc).
// Run `npm run build` first. Not part of `npm test`.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const padMiB = Number(option('--pad-mib', '60'));
const bin = option('--bin', join(root, 'bin', 'reportctl.js'));
const capMiB = Number(option('--cap-mib', '6000'));
const afterCreate = args.includes('--after-create');
const THIS = join(root, 'bin', 'reportctl.js');

const dir = mkdtempSync(join(tmpdir(), 'reportctl-parity-memory-'));
const db = join(dir, 'service.db');
// Limits the runs never reach: what is measured is memory, not waiting.
const serve = spawn(process.execPath, [THIS, 'serve', '--port', '0', '--db', db, '--json', '--no-access-log', '--reads-per-minute', '100000', '--writes-per-minute', '100000'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url: target } = JSON.parse((await createInterface({ input: serve.stdout })[Symbol.asyncIterator]().next()).value);
const { apiKey } = JSON.parse(execFileSync(process.execPath, [THIS, 'admin', 'accounts', 'create', '--db', db, '--json'], { encoding: 'utf8' }));

/** A proxy to serve that puts `padding` first in every JSON object it answers. */
async function paddingProxy(padding) {
  let created = !afterCreate;
  const server = createServer((incoming, outgoing) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)));
      try {
        const response = await fetch(target + incoming.url, { method: incoming.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
        const text = await response.text();
        if (incoming.method === 'POST' && incoming.url === '/api/v2/templates' && response.status === 201) created = true;
        const answer = [...response.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name));
        const parts = padding && created && text.startsWith('{') && text !== '{}' ? [Buffer.from('{"padding":"'), padding, Buffer.from(`",${text.slice(1)}`)] : [Buffer.from(text)];
        outgoing.writeHead(response.status, [...answer.flat(), 'content-length', String(parts.reduce((sum, part) => sum + part.length, 0))]);
        for (const part of parts) outgoing.write(part);
        outgoing.end();
      } catch {
        outgoing.destroy();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** One parity run through a proxy with this much padding: peak memory, status, time. */
async function measure(padding) {
  const proxy = await paddingProxy(padding);
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'parity', '--base-url', proxy.url, '--api-key', apiKey, '--cleanup', '--ignore', '*:specification.rate-limit'], { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv() });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  let peakKiB = 0;
  let capped = false;
  const poll = setInterval(() => {
    try {
      peakKiB = Math.max(peakKiB, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      return;
    }
    if (peakKiB / 1024 > capMiB && !capped) {
      capped = true;
      child.kill('SIGKILL');
    }
  }, 50);
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...status) => resolve(status)));
  clearInterval(poll);
  await proxy.close();
  const page = await fetch(`${target}/api/v2/templates?limit=100`, { headers: { apiKey } }).then((response) => response.json());
  const left = page.data.filter((template) => template.name.startsWith('reportctl-parity-')).length;
  return { peakMiB: Math.round(peakKiB / 1024), code: capped ? `killed past ${capMiB} MiB` : (code ?? signal), seconds: ((performance.now() - started) / 1000).toFixed(1), left, last: stderr.trim().split('\n').at(-1) };
}

try {
  console.log(`parity (${bin === THIS ? 'this tree' : bin}) through a proxy padding each JSON answer; ${cleanEnvNote()}`);
  const baseline = await measure(undefined);
  console.log(`baseline, no padding:  peak ${baseline.peakMiB} MiB, exit ${baseline.code}, ${baseline.seconds} s, ${baseline.left} templates left`);
  console.log(`  its last line: ${baseline.last}`);
  const padded = await measure(Buffer.alloc(padMiB * 1024 * 1024, 'x'));
  console.log(`${padMiB} MiB each answer${afterCreate ? ' once a template exists' : ''}: peak ${padded.peakMiB} MiB (${(padded.peakMiB / baseline.peakMiB).toFixed(1)}x the baseline), exit ${padded.code}, ${padded.seconds} s, ${padded.left} templates left`);
  console.log(`  its last line: ${padded.last}`);
} finally {
  serve.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
