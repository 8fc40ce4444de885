// Across modules: every route noun and store module of src/server has its home here, and every other test file here is a module's home or says first what it tests across modules.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE = join(ROOT, 'src/server');
const TESTS = join(ROOT, 'test/server');

const modulesOf = (folder: string) => readdirSync(join(SOURCE, folder)).filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -3));
const testsOf = (folder: string) => readdirSync(join(TESTS, folder)).filter((name) => name.endsWith('.test.ts')).map((name) => name.slice(0, -'.test.ts'.length));

/** Store modules without a home of their own, each tested where it is used. */
const STORE_MODULES_TESTED_ELSEWHERE: Record<string, string> = {
  errors: 'two error classes, thrown and checked where files are opened (db.test.ts) and fixtures applied (fixtures.test.ts)',
  index: "createStore, which every store test builds; its request-start visit is the gate's (admission/caller.test.ts)",
  'repository-context': 'helpers every repository reads through (each repository home)',
  readers: 'the stepped reader under every page of templates (routes/templates.test.ts, "a page read in steps")',
  faults: 'the injected faults, through `admin faults` and the requests they fault (test/cli/admin/faults/add.test.ts)',
};

/** A route module that declares routes (an endpoint of the table, or a route of its own), not the machinery that wires them. */
const declaresRoutes = (noun: string) => /defineEndpoint\(\{|\bapp\.(get|post|put|delete|route)\(/.test(readFileSync(join(SOURCE, 'routes', `${noun}.ts`), 'utf8'));

describe('server test homes', () => {
  it('every route noun has its home, test/server/routes/<noun>.test.ts', () => {
    const nouns = modulesOf('routes').filter(declaresRoutes);
    expect(nouns).toEqual(expect.arrayContaining(['templates', 'catalogs', 'queues', 'openapi', 'health', 'dashboard']));
    expect(nouns.filter((noun) => !existsSync(join(TESTS, 'routes', `${noun}.test.ts`)))).toEqual([]);
  });

  it('every store module has its home, test/server/store/<module>.test.ts, or is named with where it is tested', () => {
    const modules = modulesOf('store');
    expect(modules.filter((module) => !(module in STORE_MODULES_TESTED_ELSEWHERE) && !existsSync(join(TESTS, 'store', `${module}.test.ts`)))).toEqual([]);
    // An exception for a module that is gone, or that has a home now, goes too.
    expect(Object.keys(STORE_MODULES_TESTED_ELSEWHERE).filter((module) => !modules.includes(module) || existsSync(join(TESTS, 'store', `${module}.test.ts`)))).toEqual([]);
  });

  it('every test file in a folder is the home of a module of the same folder of src/server', () => {
    const folders = readdirSync(TESTS).filter((name) => statSync(join(TESTS, name)).isDirectory());
    expect(folders.filter((folder) => !existsSync(join(SOURCE, folder)))).toEqual([]);
    const strays = folders.flatMap((folder) => testsOf(folder).filter((name) => !modulesOf(folder).includes(name)).map((name) => `${folder}/${name}`));
    expect(strays).toEqual([]);
  });

  it('every test/server/*.test.ts is the home of a src/server module, or says on its first line what it tests across modules', () => {
    const unmarked = testsOf('.')
      .filter((name) => !existsSync(join(SOURCE, `${name}.ts`)))
      .filter((name) => !/^\/\/ Across modules: \S/.test(readFileSync(join(TESTS, `${name}.test.ts`), 'utf8')));
    expect(unmarked).toEqual([]);
  });
});
