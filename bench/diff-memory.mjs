// `templates diff`'s line diff on a template with every line changed (reindented: 2 spaces to
// 3): time and peak memory (RSS) of one unifiedHunks call, each case in a child process of its
// own, against a baseline measured the same way in the same run (JSON.parse + JSON.stringify of
// the same template). A child past the memory cap (RSS read from /proc) or the time cap is
// stopped and reported as such.
//
//   node bench/diff-memory.mjs                      # this tree's diff, 256 KiB (and 12, 32, 64)
//   node bench/diff-memory.mjs --rev 0486ebd 12 32  # the diff as of a commit, on 12 and 32 KB
//
// Options: --rev REV (the file as of that commit, read with git show), --cap-mib N (default
// 1024), --cap-s N (default 60), then sizes in KiB. Needs esbuild (a dev dependency). Not part of
// `npm test`.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { cleanEnv, cleanEnvNote } from './clean-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = 'src/cli/commands/templates/support/unified-diff.ts';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const rev = option('--rev', undefined);
const capMiB = Number(option('--cap-mib', '1024'));
const capSeconds = Number(option('--cap-s', '60'));
const sizes = args.length > 0 ? args.map(Number) : [12, 32, 64, 256];

// The diff module, bundled with its dependencies into one file the children import.
const work = mkdtempSync(join(tmpdir(), 'reportctl-diff-bench-'));
const contents = rev ? execFileSync('git', ['show', `${rev}:${SOURCE}`], { cwd: root, encoding: 'utf8' }) : readFileSync(join(root, SOURCE), 'utf8');
await build({
  stdin: { contents, resolveDir: dirname(join(root, SOURCE)), sourcefile: SOURCE, loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: join(work, 'unified-diff.mjs'),
  logLevel: 'warning',
});

const child = join(work, 'child.mjs');
writeFileSync(
  child,
  `import { unifiedHunks } from ${JSON.stringify(join(work, 'unified-diff.mjs'))};
const [what, kib] = process.argv.slice(2);
// A template of layout elements, as large as asked, in the file format (2-space indent).
const elements = [];
const template = { name: 'Bench', analysisType: 'counting', reportType: 'stand_count', layouts: { portrait: { elements } } };
const text = (indent) => JSON.stringify(template, null, indent) + '\\n';
for (let i = 0; text(2).length < kib * 1024; i++) {
  elements.push({ type: 'text', x: (i % 10) / 10, y: (i % 7) / 10, width: 0.1, height: 0.05, text: 'label ' + i });
}
const before = text(2);
const after = text(3);
const started = performance.now();
let lines;
if (what === 'baseline') lines = JSON.stringify(JSON.parse(before), null, 3).split('\\n').length;
else lines = unifiedHunks(before, after).length;
const ms = performance.now() - started;
console.log(JSON.stringify({ bytes: before.length, templateLines: before.split('\\n').length - 1, outputLines: lines, ms, peakRssMiB: process.resourceUsage().maxRSS / 1024 }));
`,
);

/** One child: its report, or how it was stopped. */
function measure(what, kib) {
  return new Promise((resolve) => {
    const started = performance.now();
    const running = spawn(process.execPath, [child, what, String(kib)], { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv() });
    let stdout = '';
    let stderr = '';
    let stopped;
    running.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    running.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    let peakMiB = 0;
    const watch = setInterval(() => {
      if (stopped) return; // killed: waiting for it to close
      let status = '';
      try {
        status = readFileSync(`/proc/${running.pid}/status`, 'utf8');
      } catch {
        return; // not Linux, or already gone
      }
      const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peakMiB = Math.max(peakMiB, rssKiB / 1024);
      const seconds = (performance.now() - started) / 1000;
      if (rssKiB / 1024 > capMiB) stopped = `stopped past the ${capMiB} MiB cap after ${seconds.toFixed(1)} s`;
      else if (seconds > capSeconds) stopped = `stopped after ${capSeconds} s at ${Math.round(rssKiB / 1024)} MiB (peak ${Math.round(peakMiB)} MiB)`;
      if (stopped) running.kill('SIGKILL');
    }, 100);
    running.on('close', (code) => {
      clearInterval(watch);
      if (stopped || code !== 0) resolve({ stopped: stopped ?? `exit ${code}: ${stderr.trim().split('\n').at(-1)}`, peakMiB });
      else resolve(JSON.parse(stdout));
    });
  });
}

console.log(`line diff ${rev ? `as of ${rev}` : 'of this tree'}, every line changed; caps ${capMiB} MiB, ${capSeconds} s; machine load ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ')}`);
console.log(cleanEnvNote());
for (const kib of sizes) {
  const baseline = await measure('baseline', kib);
  const diff = await measure('diff', kib);
  const head = `${String(kib).padStart(4)} KiB (${baseline.templateLines} lines)`;
  if (diff.stopped) {
    console.log(`${head}: diff ${diff.stopped}; baseline ${baseline.ms.toFixed(1)} ms, ${baseline.peakRssMiB.toFixed(0)} MiB`);
    continue;
  }
  console.log(
    `${head}: diff ${diff.ms.toFixed(0)} ms, peak ${diff.peakRssMiB.toFixed(0)} MiB (${diff.outputLines} output lines); ` +
      `baseline ${baseline.ms.toFixed(1)} ms, ${baseline.peakRssMiB.toFixed(0)} MiB; ` +
      `ratio ${(diff.ms / baseline.ms).toFixed(1)}× time, ${(diff.peakRssMiB / baseline.peakRssMiB).toFixed(2)}× memory`,
  );
}
rmSync(work, { recursive: true, force: true });
