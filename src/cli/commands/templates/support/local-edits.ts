import { execFile } from 'node:child_process';

/**
 * Of `names` (files directly in `dir`, each about to be overwritten by `pull`), those that
 * hold a local edit pull would lose. In a git work tree: a file git does not hold as
 * committed (modified, staged, untracked or ignored). Outside one, or without git, every
 * file: nothing says its content is not someone's work.
 */
export async function filesWithLocalEdits(dir: string, names: readonly string[]): Promise<{ inGit: boolean; edited: Set<string> }> {
  if (names.length === 0) return { inGit: false, edited: new Set() };
  const where = (await git(dir, ['rev-parse', '--is-inside-work-tree', '--show-prefix']))?.split('\n');
  if (where?.[0] !== 'true') return { inGit: false, edited: new Set(names) };
  const prefix = where[1] ?? '';
  // -z: paths as they are, whatever characters they hold, relative to the work tree's top.
  const status = await git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored', '--no-renames', '--', ...names.map((name) => `:(literal)${name}`)]);
  if (status === undefined) return { inGit: false, edited: new Set(names) };
  const listed = new Set(
    status
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3)),
  );
  return { inGit: true, edited: new Set(names.filter((name) => listed.has(prefix + name))) };
}

/** git's stdout, or undefined when git is missing or fails (then the folder counts as outside git). */
function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}
