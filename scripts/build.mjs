// Bundles src/ into one CommonJS file, dist/main.cjs. Packages stay outside the bundle
// (commander aside) and load only where a command needs them: esbuild runs each module's
// body on first use, so `serve`, `admin` and the client cost nothing to the commands that
// do not reach them. One CommonJS file starts measurably faster than a tree of ES modules
// (see bench/startup.mjs); ESM-only packages (chalk, ora, conf, inquirer) are loaded with
// import(), which CommonJS can do.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// commander is on every command's path: bundled, it skips a module lookup at start-up.
const bundled = new Set(['commander']);
const external = Object.keys(pkg.dependencies).filter((name) => !bundled.has(name));

// Build beside dist/ and swap it in, so a running test never sees a half-written dist/.
const staging = new URL(`../.dist-${process.pid}/`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: new URL('main.cjs', staging).pathname,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  define: { __VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
const old = new URL(`../.dist-old-${process.pid}`, import.meta.url);
try {
  renameSync(new URL('../dist', import.meta.url), old);
} catch {
  // no previous build
}
renameSync(staging, new URL('../dist', import.meta.url));
rmSync(old, { recursive: true, force: true });
