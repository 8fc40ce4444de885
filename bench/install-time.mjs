// A user's global install of the packed tarball on the Node.js running this script, timed
// against the same install with install scripts off (download and unpack only), in the same
// run. From Node.js 22 on the two should match: nothing is compiled there (docs/storage.md).
// On Node.js 20 the difference is better-sqlite3 12's compile.
//
//   npm run pack && node bench/install-time.mjs [--tarball reportctl.tgz] [--rounds 2]
//   on Node 24: PATH=<its bin>:$PATH npm_config_nodedir=<its folder> node bench/install-time.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { tarball: { type: 'string', default: 'reportctl.tgz' }, rounds: { type: 'string', default: '2' } } });
const tarball = resolve(args.tarball);
if (!existsSync(tarball)) {
  console.error(`no ${tarball}: run \`npm run pack\` first`);
  process.exit(2);
}
// Both sides get this environment as it is: npm needs what it configures (a registry's CA in
// NODE_EXTRA_CA_CERTS, npm_config_nodedir for the headers native code compiles against), and
// Node's start-up cost is noise in an install of seconds.
const env = process.env;

/** One global install into an empty prefix: seconds, and whether better-sqlite3 12 was built. */
function install(flags) {
  const prefix = mkdtempSync(join(tmpdir(), 'reportctl-install-'));
  try {
    const started = process.hrtime.bigint();
    const result = spawnSync('npm', ['install', '-g', '--prefix', prefix, ...flags, tarball], { env, cwd: tmpdir(), encoding: 'utf8' });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.status !== 0) throw new Error(`npm install ${flags.join(' ')} failed:\n${result.stderr}`);
    const compiled = existsSync(join(prefix, 'lib/node_modules/reportctl/node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
    return { seconds, compiled };
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, npm ${spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
install(['--ignore-scripts']); // fills npm's cache, so both sides download nothing
const ratios = [];
for (let round = 1; round <= Number(args.rounds); round++) {
  const baseline = install(['--ignore-scripts']);
  const user = install(['--allow-scripts=better-sqlite3']);
  ratios.push(user.seconds / baseline.seconds);
  console.log(
    `round ${round}: --ignore-scripts ${baseline.seconds.toFixed(1)} s; --allow-scripts=better-sqlite3 ${user.seconds.toFixed(1)} s ` +
      `(better-sqlite3 12 ${user.compiled ? 'compiled' : 'not installed'}); ratio ${(user.seconds / baseline.seconds).toFixed(2)}`,
  );
}
ratios.sort((a, b) => a - b);
console.log(`median ratio, a user's install against unpacking alone: ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}`);
