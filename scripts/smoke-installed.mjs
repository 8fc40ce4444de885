// Runs an installed `reportctl` (its path is the argument) as a user would, from the current
// folder: --version, formula check, serve --demo with a client command against it, and a PNG
// preview. Used by .ci/run on the packed tarball; exits 1 with what failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [reportctl] = process.argv.slice(2);
if (!reportctl) {
  console.error('usage: node scripts/smoke-installed.mjs <path to the installed reportctl>');
  process.exit(2);
}
const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

function run(args, env = {}) {
  const result = spawnSync(reportctl, args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  const shown = `reportctl ${args.join(' ')}`;
  console.log(`$ ${shown}\n${result.stdout}${result.stderr}`.trimEnd());
  return { ...result, shown };
}

function expect(condition, what) {
  if (!condition) {
    console.error(`smoke test failed: ${what}`);
    process.exitCode = 1;
  }
}

const versionRun = run(['--version']);
expect(versionRun.status === 0 && versionRun.stdout.trim() === version, `--version prints ${version}`);
const check = run(['formula', 'check', '(NIR - R) / (NIR + R + eps)']);
expect(check.status === 0, 'formula check of a valid formula exits 0');
const wrong = run(['formula', 'check', 'nir / R']);
expect(wrong.status === 1, 'formula check of a wrong formula exits 1');
const jq = run(['formula', 'check', 'NIR - R', '--jq', '.valid']);
expect(jq.status === 0 && jq.stdout === 'true\n', '--jq runs jq from the installed package');
// npm links the package's man pages (package.json: directories.man) into PREFIX/share/man.
const manPage = join(dirname(dirname(reportctl)), 'share', 'man', 'man1', 'reportctl-templates-apply.1');
expect(existsSync(manPage) && readFileSync(realpathSync(manPage), 'utf8').includes('.SH OPTIONS'), `the man page ${manPage} is installed`);
// npm installs the compiled SQLite driver (better-sqlite3 12) on Node.js 20 only (docs/storage.md).
const installedAt = dirname(dirname(realpathSync(reportctl)));
const node20Driver = existsSync(join(installedAt, 'node_modules', 'better-sqlite3', 'package.json'));
const major = Number(process.versions.node.split('.')[0]);
expect(node20Driver === major < 22, `better-sqlite3 12 is ${major < 22 ? '' : 'not '}installed on Node.js ${major}`);

// The demo service on a free port; its first line says where it listens and its keys.
const serve = spawn(reportctl, ['serve', '--demo', '--port', '0', '--db', ':memory:', '--json', '--no-access-log'], { stdio: ['ignore', 'pipe', 'inherit'] });
const started = await new Promise((resolve) => {
  let stdout = '';
  const deadline = setTimeout(() => resolve(undefined), 30_000);
  serve.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
    if (stdout.includes('\n')) {
      clearTimeout(deadline);
      resolve(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))));
    }
  });
  serve.on('exit', () => resolve(undefined));
});
try {
  expect(started !== undefined, 'serve --demo starts within 30 s');
  if (started !== undefined) {
    const client = { REPORTCTL_BASE_URL: started.url, REPORTCTL_API_KEY: started.keys.owner, REPORTCTL_CONFIG_DIR: process.cwd() };
    const list = run(['templates', 'list'], client);
    const id = list.stdout.split('\n')[0]?.split('\t')[0];
    expect(list.status === 0 && Boolean(id), 'templates list against the demo prints a template');
    const preview = run(['templates', 'preview', id, '--out', 'x.png'], client);
    const png = preview.status === 0 ? readFileSync('x.png') : Buffer.alloc(0);
    expect(png.subarray(1, 4).toString('latin1') === 'PNG', 'templates preview --out x.png writes a PNG');
  }
} finally {
  serve.kill('SIGTERM');
}
if (process.exitCode !== 1) console.log('smoke test of the installed package: passed');
