import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generalBody, vegetationBody } from '../../contract/fixtures.js';
import { runCli, spawnCli } from '../../helpers/cli.js';
import { api, startServe, tempDir } from '../../helpers/server.js';
import { runInProcess, startInProcessService, type InProcessService } from '../../helpers/in-process.js';

/**
 * Snapshots end to end: real servers, real SQLite files, `admin export`/`import` run in this
 * process, and the built CLI where `serve` itself is tested (--import, --export-on-exit, its
 * exit codes). The state is the demo account (templates, queues, runs in every state,
 * analyses, a sub-user) plus a second account with a revoked key and templates created within
 * the same millisecond (ties in the lists).
 */

/** Every list the API has, with paging and filters, as the exact bytes the server sends. */
const LIST_REQUESTS: Array<[method: string, path: string, body?: unknown]> = [
  ['GET', '/api/v2/templates?limit=100'],
  ['GET', '/api/v2/templates?limit=2&page=2'],
  ['GET', '/api/v2/templates?reportCategory=vegetation_index'],
  ['GET', '/api/v2/templates/presets?limit=100'],
  ['GET', '/api/v2/queues?limit=100'],
  ['GET', '/api/v2/queue-runs?limit=100'],
  ['GET', '/api/v2/queue-runs?status=completed'],
  ['GET', '/api/v2/analyses?limit=100'],
  ['GET', '/api/v2/analyses?limit=3&page=2'],
  ['POST', '/api/v0/analyses', {}],
  ['GET', '/api/v2/catalogs/report-types'],
  ['GET', '/api/v2/catalogs/statistics'],
  ['GET', '/api/v2/catalogs/vegetation-index-defaults'],
];

async function everyList(server: { url: string }, keys: string[]): Promise<string[]> {
  const bodies: string[] = [];
  for (const key of keys) {
    for (const [method, path, body] of LIST_REQUESTS) {
      const response = await api(server, method, path, { key, ...(body !== undefined ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(200);
      bodies.push(`${method} ${path}\n${response.text}`);
    }
  }
  return bodies;
}

const admin = async (...args: string[]) => {
  const result = await runInProcess(['admin', ...args]);
  return { ...result, json: args.includes('--json') && result.code === 0 ? (JSON.parse(result.stdout) as unknown) : undefined };
};

let source: InProcessService;
let keys: string[];
let revokedKey: string;
let sourceLists: string[];
let snapshotFile: string;

beforeAll(async () => {
  source = await startInProcessService({ demo: true });
  const demo = source.running.demoKeys!;
  const second = await source.newAccount({ templateLimit: 7 });
  const revoked = await source.admin<{ apiKey: string }>('keys', 'create', '--account', second.accountId);
  await source.admin('keys', 'revoke', revoked.apiKey);
  revokedKey = revoked.apiKey;
  // Concurrent creates: several land in the same millisecond, so order rests on the tie-break.
  const created = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      api(source, 'POST', '/api/v2/templates', { key: second.apiKey, body: index % 2 ? generalBody({ name: `t${index}` }) : vegetationBody({ name: `t${index}`, indexName: 'NDVI' }) }),
    ),
  );
  expect(created.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 201]);
  keys = [demo.ownerKey, demo.subUserKey, second.apiKey];
  sourceLists = await everyList(source, keys);
  await source.stop();
  snapshotFile = join(tempDir(), 'snapshot.json');
  const exported = await admin('export', '--db', source.db, '--file', snapshotFile);
  expect(exported.code, exported.stderr).toBe(0);
}, 120_000);

describe('export → import', () => {
  it('every list endpoint answers byte for byte the same, and old keys keep working', async () => {
    const target = join(tempDir(), 'target.db');
    const imported = await admin('import', '--db', target, '--file', snapshotFile, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json).toEqual({ accounts: 2 });
    const server = await startInProcessService({ db: target });
    try {
      expect(await everyList(server, keys)).toEqual(sourceLists);
      expect((await api(server, 'GET', '/api/v2/templates', { key: revokedKey })).status).toBe(401);
      // The template limit and count came along: 6 of 7, so one more fits and the next does not.
      expect((await api(server, 'POST', '/api/v2/templates', { key: keys[2]!, body: generalBody() })).status).toBe(201);
      expect((await api(server, 'POST', '/api/v2/templates', { key: keys[2]!, body: generalBody() })).status).toBe(403);
    } finally {
      await server.stop();
    }
  });

  it('a snapshot of an earlier version, with null analysisId and finishedAt on unfinished steps, imports; the API leaves them out', async () => {
    type Step = Record<string, unknown>;
    const document = JSON.parse(readFileSync(snapshotFile, 'utf8')) as { queueRuns: { queueRun: { steps: Step[] } }[] };
    let unfinished = 0;
    for (const { queueRun } of document.queueRuns) {
      for (const step of queueRun.steps) {
        if ('analysisId' in step) continue;
        Object.assign(step, { analysisId: null, finishedAt: null });
        unfinished += 1;
      }
    }
    expect(unfinished).toBeGreaterThan(0);
    const older = join(tempDir(), 'older.json');
    writeFileSync(older, JSON.stringify(document));
    const target = join(tempDir(), 'older.db');
    const imported = await admin('import', '--db', target, '--file', older);
    expect(imported.code, imported.stderr).toBe(0);
    const server = await startInProcessService({ db: target });
    try {
      const runs = await api(server, 'GET', '/api/v2/queue-runs?limit=100', { key: keys[0]! });
      expect(runs.status).toBe(200);
      const steps = (runs.body as { data: { steps: Step[] }[] }).data.flatMap((run) => run.steps);
      expect(steps.length).toBeGreaterThan(unfinished - 1);
      expect(steps.filter((step) => step.analysisId === null || step.finishedAt === null)).toEqual([]);
      expect(steps.filter((step) => !('analysisId' in step))).toHaveLength(unfinished);
    } finally {
      await server.stop();
    }
  });

  it('serve --import loads it into :memory: (the default with --import)', async () => {
    const spawned = await spawnCli(['serve', '--port', '0', '--json', '--no-access-log', '--import', snapshotFile]);
    try {
      const line = JSON.parse(spawned.firstLine) as { url: string; db: string };
      expect(line.db).toBe(':memory:');
      expect(await everyList(line, keys)).toEqual(sourceLists);
    } finally {
      await spawned.stop();
    }
  });

  it('serve --import into a file that has accounts is refused, the file untouched', async () => {
    const result = await runCli(['serve', '--port', '0', '--db', source.db, '--import', snapshotFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/already has accounts/);
  });

  it('the file holds key hashes only, with mode 0600, and exporting again gives the same state', async () => {
    const text = readFileSync(snapshotFile, 'utf8');
    for (const key of [...keys, revokedKey]) expect(text).not.toContain(key);
    expect(statSync(snapshotFile).mode & 0o777).toBe(0o600);
    const again = await admin('export', '--db', source.db);
    expect(again.code).toBe(0);
    const strip = (document: string) => ({ ...(JSON.parse(document) as object), exportedAt: null });
    expect(strip(again.stdout)).toEqual(strip(text));
  });

  it('the schema command prints a JSON Schema of the format', async () => {
    const result = await admin('export', '--schema');
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(expect.arrayContaining(['format', 'version', 'accounts', 'apiKeys', 'templates', 'queueRuns']));
  });
});

type TemplateDocument = Record<string, unknown> & { layouts: { portrait: { elements: unknown[] } } };

/** The snapshot with its first template changed. */
const withTemplate = (change: (template: TemplateDocument) => TemplateDocument) => (document: Record<string, unknown>) => {
  const [first, ...rest] = document.templates as Array<{ template: TemplateDocument }>;
  return { ...document, templates: [{ ...first!, template: change(first!.template) }, ...rest] };
};

/** The snapshot with its first template's portrait elements made from its first one. */
const withElements = (change: (element: Record<string, unknown>) => unknown[]) =>
  withTemplate((template) => ({
    ...template,
    layouts: { ...template.layouts, portrait: { ...template.layouts.portrait, elements: change(template.layouts.portrait.elements[0] as Record<string, unknown>) } },
  }));

describe('a snapshot that cannot be imported changes nothing', () => {
  let target: string;
  let before: string;
  const state = async () => {
    const result = await admin('export', '--db', target);
    return { ...(JSON.parse(result.stdout) as object), exportedAt: null };
  };

  beforeAll(async () => {
    target = join(tempDir(), 'target.db');
    expect((await admin('import', '--db', target, '--file', snapshotFile)).code).toBe(0);
    await admin('accounts', 'create', '--name', 'extra', '--db', target);
    before = JSON.stringify(await state());
  });

  it.each([
    ['cut short', () => readFileSync(snapshotFile, 'utf8').slice(0, 5000), /damaged: not valid JSON/, 2],
    ['of a newer format version', (document: Record<string, unknown>) => ({ ...document, version: 2 }), /newer reportctl \(snapshot format version 2; this one reads up to 1\)/, 1],
    ['missing a table', (document: Record<string, unknown>) => ({ ...document, queues: undefined }), /damaged: queues: /, 2],
    [
      'with a key of an unknown user',
      (document: Record<string, unknown>) => ({ ...document, apiKeys: [...(document.apiKeys as object[]), { ...(document.apiKeys as object[])[0]!, id: 'k-x', userId: 'nobody', keyHash: 'a'.repeat(64) }] }),
      /damaged: FOREIGN KEY constraint failed/,
      2,
    ],
    [
      'with a run of another account',
      (document: Record<string, unknown>) => {
        const runs = document.queueRuns as Array<{ accountId: string }>;
        const other = (document.accounts as Array<{ id: string }>).find((account) => account.id !== runs[0]!.accountId)!.id;
        return { ...document, queueRuns: [{ ...runs[0]!, accountId: other }, ...runs.slice(1)] };
      },
      /damaged: queue run .* belongs to another account/,
      2,
    ],
    // The API's template rules hold for imported templates too (test/server/routes/templates.test.ts and http/json-body.test.ts hold them for the API).
    ['with escape sequences in a template name', withTemplate((template) => ({ ...template, name: 'Lot 7\u001b]0;TITLE\u0007\u001b[2J' })), /breaks the API's template rules: templates\.0\.template\.name: contains a control character\. Nothing was imported/, 2],
    ['with 5,000 elements in a layout', withElements((element) => Array.from({ length: 5000 }, () => element)), /templates\.0\.template\.layouts\.portrait\.elements: at most 200 elements per orientation/, 2],
    ['with an element property of 2,000 characters', withElements((element) => [{ ...element, note: 'n'.repeat(2000) }]), /templates\.0\.template\.layouts\.portrait\.elements\.0\.note: at most 1024 characters as JSON/, 2],
    ['with a control character in an element property', withElements((element) => [{ ...element, note: 'a\u001b[2Jb' }]), /templates\.0\.template\.layouts\.portrait\.elements\.0\.note: contains a control character/, 2],
    [
      'with a template over 256 KiB',
      withElements((element) => [{ ...element, ...Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`p${index}`, 'x'.repeat(1000)])) }]),
      /templates\.0\.template: A stored template is at most 256 KiB/,
      2,
    ],
  ] as const)('%s: a clear error, the database unchanged', async (name, mutate, message, code) => {
    const file = join(tempDir(), 'bad.json');
    const document = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Record<string, unknown>;
    const changed = (mutate as (document: Record<string, unknown>) => unknown)(document);
    writeFileSync(file, typeof changed === 'string' ? changed : JSON.stringify(changed));
    const result = await admin('import', '--db', target, '--file', file, '--replace');
    expect(result.code, name).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(JSON.stringify(await state())).toBe(before);
  });

  it('serve --import refuses a template the API would refuse, naming its path, and does not start', async () => {
    const file = join(tempDir(), 'hostile.json');
    const document = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(withTemplate((template) => ({ ...template, name: 'x\u001b[2J' }))(document)));
    const result = await runCli(['serve', '--port', '0', '--import', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/breaks the API's template rules: templates\.0\.template\.name: contains a control character/);
  });

  it('a damaged file does not even create the database', async () => {
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, '{"format":"reportctl-snapshot"');
    const missing = join(tempDir(), 'new.db');
    const result = await admin('import', '--db', missing, '--file', file);
    expect(result.code).toBe(2);
    expect(existsSync(missing)).toBe(false);
  });

  it('a database with accounts is refused without --replace', async () => {
    const result = await admin('import', '--db', target, '--file', snapshotFile);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/already has accounts; pass --replace/);
    expect(JSON.stringify(await state())).toBe(before);
  });
});

describe('serve --export-on-exit', () => {
  it('writes the state at SIGTERM, including a write acknowledged just before', async () => {
    const dir = tempDir();
    const out = join(dir, 'state.json');
    const server = await startServe({ db: join(dir, 'live.db'), extraArgs: ['--export-on-exit', out] });
    const account = await server.newAccount();
    const created = await api(server, 'POST', '/api/v2/templates', { key: account.apiKey, body: generalBody({ name: 'last write' }) });
    expect(created.status).toBe(201);
    const exit = await server.process.stop('SIGTERM');
    expect(exit.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const snapshot = JSON.parse(readFileSync(out, 'utf8')) as { templates: Array<{ template: { id: string; name: string } }> };
    expect(snapshot.templates.map((entry) => entry.template.name)).toEqual(['last write']);
    // No temporary file is left beside it.
    expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // And it loads: the key works and the template is there.
    const again = await spawnCli(['serve', '--port', '0', '--json', '--no-access-log', '--import', out]);
    try {
      const line = JSON.parse(again.firstLine) as { url: string };
      const fetched = await api(line, 'GET', `/api/v2/templates/${(created.body as { id: string }).id}`, { key: account.apiKey });
      expect(fetched.text).toBe(created.text);
    } finally {
      await again.stop();
    }
  });
  it('a place it cannot be written is said at start, not found out at exit', async () => {
    const exported = await admin('export', '--db', source.db, '--file', '/nonexistent/dir/state.json');
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/cannot write the snapshot to \/nonexistent\/dir\/state.json: no such file/);
    const served = await runCli(['serve', '--port', '0', '--db', ':memory:', '--export-on-exit', '/nonexistent/dir/state.json']);
    expect(served.code).toBe(1);
    expect(served.stderr).toMatch(/cannot start the service: cannot write a snapshot to \/nonexistent\/dir\/state.json/);
  });

  it('a place that goes away while serving: at SIGTERM, exit 1 saying why, not 130', async () => {
    const dir = tempDir();
    const out = join(dir, 'gone', 'state.json');
    const { mkdirSync, rmSync } = await import('node:fs');
    mkdirSync(join(dir, 'gone'));
    const server = await startServe({ db: join(dir, 'live.db'), extraArgs: ['--export-on-exit', out] });
    rmSync(join(dir, 'gone'), { recursive: true });
    const exit = await server.process.stop('SIGTERM');
    expect(exit.code).toBe(1);
    // serve --json: the failure is one JSON line.
    expect(server.process.stderr()).toMatch(/"error":"FAILED","message":"stopped, but [^"]*state\.json/);
  });
});

afterAll(async () => {
  await source?.stop();
});
