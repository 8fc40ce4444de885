import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS, CHECKS_SOURCE } from './check-files.mjs';
import { VENDORED } from './vendor.mjs';

const reportctl = fileURLToPath(new URL('../../bin/reportctl.js', import.meta.url));

// V8's code caches, each from one run that uses the file (see bin/code-cache.js): the CLI's
// from `formula check` (the offline commands) and from `templates list` (the client's, kind
// `client`, see bin/reportctl.js), the service's from `serve`, the client packages' from
// `templates list` against a stand-in service. That first list gets a page of one template,
// which the client's generated check passes (no zod); zod's cache comes from a second list whose page
// the check refuses and zod's lenient schema accepts (a template without the optional
// fields). Optional: a failure here only costs start-up time, so it warns and the build stands.
export async function writeCodeCaches() {
  await warmCodeCache('main.cjs', ['formula', 'check', 'NIR/(R+eps)']);
  // serve, stopped once it listens: its cache then holds the store's code and fastify's start.
  await warmCodeCache('embedded.cjs,vendor-fastify.cjs', ['serve', '--port', '0', '--db', ':memory:', '--json', '--no-access-log'], {}, { stopWhenListening: true });
  const at = '2026-01-01T00:00:00.000Z';
  const sparseTemplate = { id: 'build', userId: 'build', name: 'build', analysisType: 'counting', reportType: 'build', reportTypeId: 'build', reportCategory: 'general', selectedStatistics: [], createdAt: at, updatedAt: at };
  const fullTemplate = { ...sparseTemplate, layouts: { portrait: { elements: [] } }, paperSize: 'a4', mapResolution: 300, margins: { top: 10, right: 10, bottom: 10, left: 10 } };
  let page = { total: 1, page: 1, limit: 20, data: [fullTemplate] };
  // The client's cache is of the path without zod: a page its check refuses would put zod's in.
  const { templatePage } = await import(`../../${CHECKS_SOURCE}`);
  if (!templatePage(page) || templatePage({ ...page, data: [sparseTemplate] })) {
    throw new Error('build: the stand-in pages no longer pass (first) and fail (second) the generated check; update them in scripts/build/code-caches.mjs');
  }
  const standIn = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(page));
  });
  await new Promise((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const configDir = mkdtempSync(join(tmpdir(), 'reportctl-build-'));
  try {
    const list = ['templates', 'list', '--base-url', `http://127.0.0.1:${standIn.address().port}`, '--api-key', 'rctl_build'];
    await warmCodeCache(['main.cjs', 'checks-templatePage.cjs', ...VENDORED.filter((name) => name !== 'zod').map((name) => `vendor-${name}.cjs`)].join(','), list, { REPORTCTL_CONFIG_DIR: configDir });
    page = { total: 1, page: 1, limit: 20, data: [sparseTemplate] };
    await warmCodeCache('vendor-zod.cjs', list, { REPORTCTL_CONFIG_DIR: configDir });
  } finally {
    standIn.close();
    rmSync(configDir, { recursive: true, force: true });
  }
  // The other checks' caches, each from one call of its check (V8 compiles a function whole on
  // its first call): the template's with a template, the rest with anything.
  const samples = { template: fullTemplate };
  const others = CHECKS.filter((name) => name !== 'templatePage');
  await warmCodeCache(others.map((name) => `checks-${name}.cjs`).join(','), [JSON.stringify(samples), ...others], {}, {
    // Under the bin's JIT flags, as every command runs: V8 refuses a cache made under others.
    script: `require(${JSON.stringify(fileURLToPath(new URL('../../bin/jit-tiers.js', import.meta.url)))});
  const { loadCompiled } = require(${JSON.stringify(fileURLToPath(new URL('../../bin/code-cache.js', import.meta.url)))});
  const [samples, ...names] = process.argv.slice(1);
  for (const name of names) loadCompiled(require('node:path').join(${JSON.stringify(fileURLToPath(new URL('../../dist/', import.meta.url)))}, 'checks-' + name + '.cjs'))[name](JSON.parse(samples)[name] ?? {});`,
  });
}

async function warmCodeCache(file, args, env = {}, { stopWhenListening = false, script } = {}) {
  const child = spawn(process.execPath, script === undefined ? [reportctl, ...args] : ['-e', script, ...args], {
    env: { ...process.env, ...env, REPORTCTL_WRITE_CODE_CACHE: file },
    stdio: ['ignore', stopWhenListening ? 'pipe' : 'ignore', 'pipe'],
  });
  // Its first line on stdout says where it listens: SIGTERM then makes it exit cleanly.
  if (stopWhenListening) child.stdout.once('data', () => child.kill('SIGTERM'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const [status, error] = await new Promise((resolve) => {
    child.on('error', (failure) => resolve([null, failure]));
    child.on('close', (code) => resolve([code, null]));
  });
  if (status !== 0) console.warn(`build: no code cache for dist/${file} (${error?.message ?? stderr.trim()})`);
}
