import { defineConfig } from 'vitest/config';

// Test processes talk to loopback only. A CA bundle named here (some CI machines set one) is
// parsed at every Node start of the suite's children and workers, which inherit the
// environment from this process (the cost: docs/performance.md, "The fair baseline").
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * Test files share one module registry per worker (no isolation), except those in ISOLATED:
 * importing the CLI, the service and the contract is most of a small file's time, so each
 * worker imports them once. A file shares safely when the next file in its worker sees nothing
 * it did: no vi.mock, and process.env, umask, spies and timers restored after it. A helper
 * module must not register hooks when it loads: loaded once per worker, its afterEach would
 * bind to the first file that imports it only (register per test, with onTestFinished).
 */
const ISOLATED = [
  // vi.mock replaces a module in the whole registry.
  'test/formula/functions.test.ts',
];

export default defineConfig({
  test: {
    // Says once which tests a missing program (zsh, fish) keeps from running; refuses a dist/
    // older than src/ (many tests run the built binary); keeps the built CLI's code caches in a
    // folder of the run's.
    globalSetup: ['test/setup/programs.ts', 'test/setup/fresh-build.ts', 'test/setup/cache-folder.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: child-process and server tests share them.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
