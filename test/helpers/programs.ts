import { spawnSync } from 'node:child_process';
import { it } from 'vitest';

/**
 * Programs some tests need that npm cannot install. Where one is missing the tests that need
 * it are skipped, and test/setup/programs.ts says so once at the start of the run; with
 * REPORTCTL_REQUIRE_PROGRAMS=1 (set by .ci/run) a missing one fails the run instead.
 */
export const EXTERNAL_PROGRAMS = {
  zsh: { install: 'apt-get install zsh', needed: 'zsh completion tests' },
  fish: { install: 'apt-get install fish', needed: 'fish completion tests' },
  python3: { install: 'apt-get install python3', needed: 'pseudo-terminal (prompt and TTY) tests' },
} as const;

export type ExternalProgram = keyof typeof EXTERNAL_PROGRAMS;

const found = new Map<string, boolean>();

export function hasProgram(name: ExternalProgram): boolean {
  let present = found.get(name);
  if (present === undefined) {
    present = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
    found.set(name, present);
  }
  return present;
}

/** `it` where `name` is installed, `it.skip` where it is not (the run's start says which). */
export function itWith(name: ExternalProgram): typeof it.skip {
  return hasProgram(name) ? it : it.skip;
}
