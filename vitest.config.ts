import { defineConfig } from 'vitest/config';

// Test processes talk to loopback only. A CA bundle named here (some CI machines set one) is
// parsed at every Node start, about 70 ms of CPU for each of the suite's ~400 children and
// workers, which inherit the environment from this process.
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * Files that share one module registry per worker (no isolation): pure code and in-process
 * commands that leave no module state behind. Importing the CLI and the contract is most of
 * such a file's time, so they import it once per worker. A file that mocks a module
 * (vi.mock) must stay isolated.
 */
const SHARED = ['test/formula/**/*.test.ts', 'test/contract/**/*.test.ts', 'test/preview/**/*.test.ts', 'test/admin/**/*.test.ts', 'test/cli/*/*.test.ts'];
const MOCKING = ['test/formula/function-registry.test.ts'];

export default defineConfig({
  test: {
    // Says once which tests a missing program (zsh, fish) keeps from running; refuses a dist/
    // older than src/ (many tests run the built binary).
    globalSetup: ['test/setup/programs.ts', 'test/setup/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: child-process and server tests share them.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, exclude: MOCKING, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
