import { spawnSync } from 'node:child_process';
import { it } from 'vitest';

/**
 * Programs some tests need that npm cannot install (puppeteer-core drives the system's
 * chromium). Where one is missing the tests that need it are skipped, and
 * test/setup/programs.ts says so once at the start of the run; with
 * REPORTCTL_REQUIRE_PROGRAMS=1 (set by .ci/run) a missing one fails the run instead.
 */
export const EXTERNAL_PROGRAMS = {
  zsh: { install: 'apt-get install zsh', needed: 'zsh completion tests' },
  fish: { install: 'apt-get install fish', needed: 'fish completion tests' },
  python3: { install: 'apt-get install python3', needed: 'pseudo-terminal (prompt and TTY) tests' },
  tmux: { install: 'apt-get install tmux', needed: 'tests of what a terminal shows after prompts redraw' },
  chromium: { install: 'apt-get install chromium', needed: 'dashboard and preview page tests in a real browser' },
  'pre-commit': { install: 'apt-get install pre-commit', needed: 'tests of the pre-commit hooks (.pre-commit-hooks.yaml)' },
  shellcheck: { install: 'apt-get install shellcheck', needed: "the check of the README's shell" },
  nvim: { install: 'apt-get install neovim', needed: 'tests of reportctl lsp with a real editor' },
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

/**
 * A test that needs `name`: it runs where the program is installed; where it is not, it stops
 * at its first line and the report names the program and how to install it (the run's start
 * and end say so too, and with REPORTCTL_REQUIRE_PROGRAMS=1 the run fails instead).
 */
export function testWith(name: ExternalProgram, title: string, body: () => void | Promise<void>, timeoutMs?: number): void {
  it(
    title,
    async (context) => {
      if (!hasProgram(name)) context.skip(`${name} is not installed (${EXTERNAL_PROGRAMS[name].install})`);
      await body();
    },
    timeoutMs,
  );
}
