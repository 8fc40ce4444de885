// Across modules: the served OpenAPI document, through openapi-typescript, types a client that compiles.
import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { api, tempDir } from '../helpers/server.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';

/**
 * What a user's code generator makes of the served document: openapi-typescript turns it into
 * types, and test/fixtures/typed-client.ts, which calls three endpoints through them (and
 * expects the closed sets and bounds to be enforced), type-checks under tsc.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const suite = inProcessServiceForSuite();

const node = (...args: string[]) => spawnSync(process.execPath, args, { encoding: 'utf8', cwd: root, timeout: 120_000 });

it('openapi-typescript turns the served document into types a typed client compiles against', async () => {
  const served = await api(suite.server, 'GET', '/api/v2/openapi.json');
  expect(served.status).toBe(200);
  const dir = tempDir('reportctl-typed-client-');
  writeFileSync(join(dir, 'openapi.json'), served.text);

  const generate = node(join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'openapi.d.ts'));
  expect(generate.status, generate.stderr).toBe(0);

  copyFileSync(join(root, 'test/fixtures/typed-client.ts'), join(dir, 'client.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        // TypeScript's own lib files are its business: the generated types and the client are checked.
        skipDefaultLibCheck: true,
      },
      files: ['client.ts'],
    }),
  );
  const check = node(join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json'));
  expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
}, 120_000);
