import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

const HEAVY = ['undici', 'fastify', 'better-sqlite3', '@inquirer', 'ora', 'zod', 'conf', 'cli-table3'];

/** Every module URL the command resolved, recorded by a loader hook. */
function modulesLoadedBy(args: string[]): string[] {
  const dir = tempDir();
  const log = join(dir, 'modules.log');
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`,
  );
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  expect(result.status, result.stderr).toBe(0);
  // CommonJS requires (commander's own) do not pass the ESM hook; packages loaded by import do.
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('heavy modules load lazily', () => {
  it.each([[['formula', 'check', 'NIR/(R+eps)']], [['--help']], [['formula', 'check', '--help']]])(
    'reportctl %j loads none of the heavy packages',
    (args) => {
      const loaded = modulesLoadedBy(args);
      expect(loaded.some((url) => url.includes('/dist/main.js'))).toBe(true);
      for (const name of HEAVY) {
        expect(loaded.filter((url) => url.includes(`/node_modules/${name}`)), name).toEqual([]);
      }
    },
  );

  it('the hook does see them when a command needs them (the check above is not vacuous)', () => {
    const loaded = modulesLoadedBy(['templates', 'validate', '--help']);
    expect(loaded.some((url) => url.includes('/node_modules/'))).toBe(false);
    const withDb = modulesLoadedBy(['admin', 'accounts', 'list', '--db', ':memory:', '--json']);
    expect(withDb.some((url) => url.includes('/node_modules/zod'))).toBe(true);
  });
});
