// `prepare` runs the build, which needs the development dependencies (esbuild). Where they are
// missing (`npm install -g .` from a fresh clone), it says what to run instead.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('esbuild');
} catch {
  console.error(`reportctl: building needs the development dependencies, which are not installed here.
Install reportctl from a clone with:
  npm ci && npm run pack
  npm install -g --allow-scripts=better-sqlite3 ./reportctl.tgz`);
  process.exit(1);
}
await import('./build.mjs');
