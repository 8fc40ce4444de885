// Bundles src/ into CommonJS: dist/main.cjs (the CLI) and dist/embedded.cjs (serve, admin).
// Packages stay outside the bundles (commander aside) and load where a command needs them;
// esbuild runs each module's body on first use. CommonJS files start measurably faster than
// a tree of ES modules, and compiling the CLI's file is most of its start-up, so the service
// lives in a file of its own (see bench/startup.mjs). ESM-only packages (chalk, ora, conf,
// inquirer) are loaded with import(), which CommonJS can do.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// commander is on every command's path: bundled, it skips a module lookup at start-up.
const bundled = new Set(['commander']);
const external = Object.keys(pkg.dependencies).filter((name) => !bundled.has(name));

// Build beside dist/ and swap it in, so a running test never sees a half-written dist/.
const staging = new URL(`../.dist-${process.pid}/`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
/** The CLI reaches the embedded service only through src/embedded.ts: its own bundle. */
const embeddedApart = {
  name: 'embedded-apart',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/embedded\.js$/ }, () => ({ path: './embedded.cjs', external: true }));
  },
};
const common = {
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
};
await build({ ...common, entryPoints: ['src/main.ts'], outfile: new URL('main.cjs', staging).pathname, plugins: [embeddedApart] });
await build({ ...common, entryPoints: ['src/embedded.ts'], outfile: new URL('embedded.cjs', staging).pathname });
const old = new URL(`../.dist-old-${process.pid}`, import.meta.url);
try {
  renameSync(new URL('../dist', import.meta.url), old);
} catch {
  // no previous build
}
renameSync(staging, new URL('../dist', import.meta.url));
rmSync(old, { recursive: true, force: true });
