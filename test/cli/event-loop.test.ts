// Across verbs: a command whose event loop empties before its work is done fails, saying so;
// it never ends with a silent exit 0.
/**
 * Node ends a process whose event loop has nothing left to wait for with code 0, even while
 * the command still awaits a promise that nothing will settle (work Node does not track). A
 * preload makes the folder `help reference --man` creates such a promise: only a process shows
 * how it then ends.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

const NEVER_MADE = "require('node:fs/promises').mkdir = () => new Promise(() => {});\n";

function manPagesWith(preload: string, json: boolean) {
  const dir = tempDir();
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, preload);
  const args = ['--require', probe, BIN, 'help', 'reference', '--man', join(dir, 'man'), ...(json ? ['--json'] : [])];
  return spawnSync(process.execPath, args, { encoding: 'utf8', env: cleanEnv(), timeout: 20_000 });
}

describe('a command whose event loop runs dry before its work is done', () => {
  it('fails with exit 1 and says so, never a silent exit 0', () => {
    const result = manPagesWith(NEVER_MADE, false);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^reportctl: unexpected error: the command stopped before its work was done/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('says it as the JSON error line under --json', () => {
    const result = manPagesWith(NEVER_MADE, true);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: 'INTERNAL_ERROR', exitCode: 1 });
  });

  it('the same command with a folder that gets made answers normally (the preload is all that differs)', () => {
    const result = manPagesWith('', false);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });
});
