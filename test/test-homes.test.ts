// Across modules: every test file outside test/cli and test/server (which hold rules of their own,
// test/cli/test-homes.test.ts and test/server/test-homes.test.ts) is the home of the src/ module
// at the same path, or says on its first line what it tests across modules.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const TESTS = join(ROOT, 'test');
const WITH_RULES_OF_THEIR_OWN = new Set(['cli', 'server']);

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return dir === TESTS && WITH_RULES_OF_THEIR_OWN.has(name) ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [relative(TESTS, path)] : [];
  });
}

const homeOf = (file: string) => join(ROOT, 'src', file.replace(/\.test\.ts$/, '.ts'));
const saysAcross = (file: string) => /^\/\/ Across modules: \S/.test(readFileSync(join(TESTS, file), 'utf8'));

describe('test homes outside the CLI and the server', () => {
  const files = testFiles(TESTS);

  it('walks the test folders', () => {
    expect(files).toEqual(expect.arrayContaining(['formula/parser.test.ts', 'contract/template.test.ts', 'readme.test.ts']));
  });

  it("every test file is a src/ module's home or says first what it tests across modules", () => {
    expect(files.filter((file) => !existsSync(homeOf(file)) && !saysAcross(file))).toEqual([]);
  });

  it('a home does not also claim to be across modules', () => {
    expect(files.filter((file) => existsSync(homeOf(file)) && saysAcross(file))).toEqual([]);
  });
});
