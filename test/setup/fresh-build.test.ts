// Across modules: the globalSetup that refuses a stale dist/ (test/setup/fresh-build.ts).
// The globalSetup that refuses a stale dist/, on a throwaway tree whose times are set by hand.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.js';
import { staleBuild } from './fresh-build.js';

const BUILT = new Date('2026-03-01T12:00:00Z');
const BEFORE = new Date('2026-03-01T11:00:00Z');
const AFTER = new Date('2026-03-01T13:00:00Z');

function touch(root: string, path: string, time: Date): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), '');
  utimesSync(join(root, path), time, time);
}

/** src/, scripts/build.mjs and dist/ as a build leaves them: every source before the bundles. */
function freshTree(): string {
  const root = tempDir('reportctl-fresh-build-');
  for (const source of ['src/main.ts', 'src/cli/commands/templates/list.ts', 'scripts/build.mjs']) touch(root, source, BEFORE);
  for (const output of ['dist/main.cjs', 'dist/embedded.cjs', 'dist/main.cjs.map']) touch(root, output, BUILT);
  return root;
}

describe('refusing a stale build', () => {
  it('a build newer than every source passes', () => {
    expect(staleBuild(freshTree())).toBeUndefined();
  });

  it('a file in src/ changed after the build is refused, and named', () => {
    const root = freshTree();
    touch(root, 'src/cli/commands/templates/list.ts', AFTER);
    expect(staleBuild(root)).toBe(`dist/ is older than src/: run npm run build (${join('src', 'cli', 'commands', 'templates', 'list.ts')} changed after the build)`);
  });

  it('so is a new file in src/, and a changed scripts/build.mjs', () => {
    const added = freshTree();
    touch(added, 'src/cli/commands/admin/seed.ts', AFTER);
    expect(staleBuild(added)).toMatch(/^dist\/ is older than src\/: run npm run build \(src.cli.commands.admin.seed\.ts changed/);
    const script = freshTree();
    touch(script, 'scripts/build.mjs', AFTER);
    expect(staleBuild(script)).toMatch(/^dist\/ is older than src\/: run npm run build \(scripts.build\.mjs changed/);
  });

  it("a changed piece of the build's (scripts/build/) is refused too", () => {
    const root = freshTree();
    touch(root, 'scripts/build/vendor.mjs', AFTER);
    expect(staleBuild(root)).toMatch(/\(scripts.build.vendor\.mjs changed after the build\)$/);
  });

  it('one bundle left from an older build is enough to refuse', () => {
    const root = freshTree();
    touch(root, 'src/main.ts', new Date('2026-03-01T12:30:00Z'));
    touch(root, 'dist/main.cjs', AFTER);
    expect(staleBuild(root)).toMatch(/src.main\.ts changed after the build/);
  });

  it('no dist/ at all is refused', () => {
    const root = freshTree();
    rmSync(join(root, 'dist'), { recursive: true });
    expect(staleBuild(root)).toBe('dist/ has no build: run npm run build');
  });
});
