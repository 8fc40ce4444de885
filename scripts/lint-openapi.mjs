// Lints the OpenAPI document the built service serves (dist/embedded.cjs builds it from the
// route table and the contract, without a database) with Redocly's recommended rules.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The build's files are wrapped for bin/code-cache.js, which is what loads them.
const { loadCompiled } = createRequire(import.meta.url)('../bin/code-cache.js');
const { serviceOpenApiDocument } = loadCompiled(join(root, 'dist', 'embedded.cjs'));
const dir = mkdtempSync(join(tmpdir(), 'reportctl-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, `${JSON.stringify(serviceOpenApiDocument(), null, 2)}\n`);
const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const lint = spawnSync(process.execPath, [redocly, 'lint', file, '--config', join(root, 'redocly.yaml'), '--max-problems', '200'], {
  stdio: 'inherit',
  // No usage reports or update checks from a test run.
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
process.exitCode = lint.status ?? 1;
