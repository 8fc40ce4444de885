// `npm run pack`: the installable package as ./reportctl.tgz, for `npm install -g ./reportctl.tgz`
// (a copy of its own, not a link to the clone), with ./reportctl-sqlite-node20.tgz beside it
// (Node 20's SQLite driver, docs/storage.md). reportctl.tgz is packed from a staging folder whose
// package.json has no scripts and no development fields: npm lists a tarball's `prepare` among
// the install scripts a global install must be allowed to run, though it never runs there.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const npm = process.env.npm_execpath;
const runNpm = (args, cwd) =>
  execFileSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stage = mkdtempSync(join(tmpdir(), 'reportctl-pack-'));
try {
  for (const entry of [...manifest.files.filter((name) => !name.startsWith('!')), 'README.md']) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true, filter: (source) => !source.endsWith('.map') });
  }
  // A local package (the Node 20 SQLite driver's) becomes a tarball beside reportctl.tgz: npm
  // installs a packed dependency with its dependencies and checks its engines, where a folder
  // inside the package would only be linked. npm looks for it beside the tarball it installs.
  for (const [name, spec] of Object.entries(manifest.optionalDependencies ?? {})) {
    if (!spec.startsWith('file:')) continue;
    const [local] = JSON.parse(runNpm(['pack', '--json', '--ignore-scripts', '--pack-destination', root], join(root, spec.slice('file:'.length))));
    renameSync(join(root, local.filename), join(root, `${name}.tgz`));
    manifest.optionalDependencies[name] = `file:${name}.tgz`;
  }
  for (const field of ['scripts', 'devDependencies', 'allowScripts', 'overrides']) delete manifest[field];
  // The man pages the build wrote, one per command: a global install links them into PREFIX/share/man.
  manifest.man = readdirSync(join(root, 'dist/man')).sort().map((page) => `./dist/man/${page}`);
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const [packed] = JSON.parse(runNpm(['pack', '--json', '--ignore-scripts', '--pack-destination', root], stage));
  renameSync(join(root, packed.filename), join(root, 'reportctl.tgz'));
  const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.error(`reportctl.tgz: ${packed.entryCount} files, ${mb(packed.size)} (${mb(packed.unpackedSize)} unpacked)`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
