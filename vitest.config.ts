import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Says once which tests a missing program (zsh, fish) keeps from running.
    globalSetup: ['test/setup/programs.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: child-process and server tests share them.
    maxWorkers: 2,
  },
});
