// Across verbs: every visible verb has exactly one home file for its tests,
// test/cli/<group path>/<verb>.test.ts (a verb at the top level: test/cli/<verb>/<verb>.test.ts),
// and a shared module's tests live in test/cli/<room>/<module>.test.ts, beside no other.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { CommandUnknownOpts as Command } from '../../src/cli/cmdutil/typed-commander.js';
import { testDeps } from '../helpers/in-process.js';

const CLI_TESTS = join(import.meta.dirname, '.');
const CLI_SOURCES = join(import.meta.dirname, '../../src/cli');
const SHARED_ROOMS = ['iostreams', 'cmdutil', 'output', 'session'];

function leafPaths(command: Command, prefix: string[] = []): string[][] {
  const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  if (visible.length === 0) return [prefix];
  return visible.flatMap((sub) => leafPaths(sub, [...prefix, sub.name()]));
}

const homeOf = (path: string[]) => join(CLI_TESTS, ...(path.length === 1 ? [path[0]!, path[0]!] : path)) + '.test.ts';

describe('test homes', () => {
  const verbs = leafPaths(buildProgram(testDeps().deps, () => {}));

  it('walks a tree with verbs in it', () => {
    expect(verbs.length).toBeGreaterThan(20);
  });

  it('every visible verb has its home file', () => {
    const missing = verbs.filter((path) => !existsSync(homeOf(path))).map((path) => path.join(' '));
    expect(missing).toEqual([]);
  });

  it('every test/cli/*.test.ts is a cross-verb suite that says which property on its first line', () => {
    const unmarked = readdirSync(CLI_TESTS)
      .filter((name) => name.endsWith('.test.ts'))
      .filter((name) => !/^\/\/ Across verbs: \S/.test(readFileSync(join(CLI_TESTS, name), 'utf8')));
    expect(unmarked).toEqual([]);
  });

  it('a test file under a room of src/cli (iostreams, cmdutil, output, session) is the home of a module there', () => {
    const strays = SHARED_ROOMS.flatMap((room) => {
      const dir = join(CLI_TESTS, room);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((name) => name.endsWith('.test.ts'))
        .filter((name) => !existsSync(join(CLI_SOURCES, room, name.replace(/\.test\.ts$/, '.ts'))))
        .map((name) => `${room}/${name}`);
    });
    expect(strays).toEqual([]);
  });

  it('a test/cli/<noun>.test.ts beside a noun folder is a cross-verb suite that says so first', () => {
    const nouns = new Set(verbs.map((path) => path[0]!));
    const unmarked = [...nouns]
      .map((noun) => join(CLI_TESTS, `${noun}.test.ts`))
      .filter((file) => existsSync(file) && !/^\/\/ (A property a|A)cross verbs/i.test(readFileSync(file, 'utf8')));
    expect(unmarked).toEqual([]);
  });
});
