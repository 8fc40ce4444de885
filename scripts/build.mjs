// Bundles src/ into dist/ with code splitting, so `serve`/`admin` (Fastify, SQLite) and the
// client (undici, zod) live in chunks loaded by dynamic import, and common commands start fast.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// commander is on every command's path: bundled, it skips Node's CommonJS loader at start-up.
const bundled = new Set(['commander']);
const external = Object.keys(pkg.dependencies).filter((name) => !bundled.has(name));

// Build beside dist/ and swap it in, so a running test never sees a half-written dist/.
const staging = new URL(`../.dist-${process.pid}`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: staging.pathname,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS (commander) calls require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
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
