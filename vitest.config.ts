import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Says once which tests a missing program (zsh, fish) keeps from running; refuses a dist/
    // older than src/ (many tests run the built binary).
    globalSetup: ['test/setup/programs.ts', 'test/setup/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: child-process and server tests share them.
    maxWorkers: 2,
  },
});
