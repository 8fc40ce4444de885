import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { spawnCliInPty } from '../helpers/pty.js';
import { api, startServe, tempDir, type IssuedKey, type TestServer } from '../helpers/server.js';
import { generalBody } from '../contract/fixtures.js';
import { stepSymbol } from '../../src/cli/commands/queue-runs/columns.js';

interface Created {
  id: string;
  name: string;
  updatedAt: string;
  mapResolution: number;
}

let server: TestServer;
let account: IssuedKey;
let env: Record<string, string>;
const files = tempDir('reportctl-references-');

async function create(name: string): Promise<Created> {
  const response = await api(server, 'POST', '/api/v2/templates', { key: account.apiKey, body: generalBody({ name }) });
  expect(response.status).toBe(201);
  return response.body as Created;
}

async function fetchTemplate(id: string): Promise<Created> {
  return (await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey })).body as Created;
}

beforeAll(async () => {
  server = await startServe();
  account = await server.newAccount();
  env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey };
});
afterAll(async () => {
  await server?.stop();
});

describe('templates and runs by id prefix or name', () => {
  it('a unique prefix of 6+ characters, or the exact name, finds the template', async () => {
    const template = await create('Lot 7 — stand count');
    for (const reference of [template.id.slice(0, 6), template.id.slice(0, 13), 'Lot 7 — stand count', template.id]) {
      const result = await runCli(['templates', 'get', reference, '--json'], { env });
      expect(result.code, `${reference}: ${result.stderr}`).toBe(0);
      expect((JSON.parse(result.stdout) as Created).id).toBe(template.id);
    }
  });

  it('an ambiguous name exits 2 and lists the candidates with their names and creation times', async () => {
    const first = await create('Twin lot');
    const second = await create('Twin lot');
    const result = await runCli(['templates', 'get', 'Twin lot'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Twin lot could be 2 templates/);
    for (const twin of [first, second]) expect(result.stderr).toMatch(new RegExp(`${twin.id}: Twin lot \\(created \\d{4}-`));
  });

  it('a prefix shorter than 6 characters is not taken as a prefix: exit 4, saying why', async () => {
    const template = await create('Short prefix');
    const result = await runCli(['templates', 'get', template.id.slice(0, 4)], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/at least 6 characters/);
  });

  it('replace takes a prefix too', async () => {
    const template = await create('Replace by prefix');
    const file = join(files, 'replace.json');
    writeFileSync(file, JSON.stringify(generalBody({ name: 'Replaced by prefix' })));
    const result = await runCli(['templates', 'replace', template.id.slice(0, 8), '--file', file], { env });
    expect(result.code, result.stderr).toBe(0);
    expect((await fetchTemplate(template.id)).name).toBe('Replaced by prefix');
  });

  it('queue-runs get and watch take a prefix or the run name', async () => {
    const queue = await server.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'North lots', '--step', 'lot-1:counting');
    const run = await server.admin<{ id: string; name: string }>('queue-runs', 'enqueue', '--queue', queue.id);
    const byPrefix = await runCli(['queue-runs', 'get', run.id.slice(0, 8), '--json'], { env });
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect((JSON.parse(byPrefix.stdout) as { id: string }).id).toBe(run.id);
    const watched = await runCli(['queue-runs', 'watch', run.id.slice(0, 8), '--json', '--interval', '0.5', '--timeout', '0.5'], { env });
    expect(watched.code).toBe(8);
    expect((JSON.parse(watched.stdout.split('\n')[0]!) as { id: string }).id).toBe(run.id);
  });
});

describe('templates delete', () => {
  it('a template that is not there is exit 4 before any --yes demand', async () => {
    const result = await runCli(['templates', 'delete', '00000000-0000-4000-8000-000000000000'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).not.toMatch(/--yes/);
  });

  it('the confirmation names the template and its short id', async () => {
    const template = await create('Delete me — north field');
    const pty = spawnCliInPty(['templates', 'delete', template.id.slice(0, 8)], { env: { ...env, CI: undefined } });
    try {
      await pty.waitFor(`Delete template "Delete me — north field" (${template.id.slice(0, 8)})?`);
      await pty.type('n', '\r');
      expect((await pty.exited).code).toBe(0);
      expect((await fetchTemplate(template.id)).name).toBe('Delete me — north field');
    } finally {
      pty.kill();
    }
  });
});

describe('on a terminal', () => {
  it('tables at 80 columns show short ids and readable names; --wide shows whole ids', async () => {
    const fresh = await server.newAccount();
    const freshEnv = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: fresh.apiKey, PTY_COLUMNS: '80' };
    const created = await api(server, 'POST', '/api/v2/templates', { key: fresh.apiKey, body: generalBody({ name: 'Lot 12 — replanting north field' }) });
    const id = (created.body as Created).id;
    const narrow = spawnCliInPty(['templates', 'list'], { env: freshEnv });
    expect((await narrow.exited).code).toBe(0);
    expect(narrow.transcript()).toContain(id.slice(0, 8));
    expect(narrow.transcript()).not.toContain(id);
    expect(narrow.transcript()).toContain('Lot 12 — replanting north field');
    const wide = spawnCliInPty(['templates', 'list', '--wide'], { env: freshEnv });
    expect((await wide.exited).code).toBe(0);
    expect(wide.transcript()).toContain(id);
  });

  it('an empty list says so on a terminal', async () => {
    const empty = await server.newAccount();
    const pty = spawnCliInPty(['templates', 'list'], { env: { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: empty.apiKey } });
    expect((await pty.exited).code).toBe(0);
    expect(pty.transcript()).toMatch(/no templates match/);
  });

  it('claimed and cancelled runs have symbols of their own', () => {
    const symbols = ['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled', 'skipped'].map(stepSymbol);
    expect(symbols).not.toContain('?');
    expect(new Set(symbols).size).toBe(symbols.length);
  });
});

describe('templates edit', () => {
  /**
   * An EDITOR that plays `rounds` in turn, one per opening: each a function body given
   * `text` (the file) that returns what to save. It records what it was shown.
   */
  function scriptedEditor(name: string, rounds: string[]): { editor: string; shown: () => string[] } {
    const script = join(files, `${name}.mjs`);
    const log = join(files, `${name}.log.json`);
    writeFileSync(log, '[]');
    writeFileSync(
      script,
      `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const shown = JSON.parse(readFileSync(${JSON.stringify(log)}, 'utf8'));
const text = readFileSync(file, 'utf8');
shown.push(text);
writeFileSync(${JSON.stringify(log)}, JSON.stringify(shown));
const rounds = [${rounds.map((body) => `(text) => { ${body} }`).join(', ')}];
writeFileSync(file, rounds[shown.length - 1](text));
`,
    );
    return { editor: `"${process.execPath}" "${script}"`, shown: () => JSON.parse(readFileSync(log, 'utf8')) as string[] };
  }
  const strip = "text.split('\\n').filter((line) => !line.startsWith('//')).join('\\n')";

  it('on a terminal, a rejected edit reopens with the errors on top until it is fixed', async () => {
    const template = await create('Edit loop');
    const { editor, shown } = scriptedEditor('loop', [
      `const t = JSON.parse(text); t.mapResolution = 5; return JSON.stringify(t, null, 2);`,
      `const t = JSON.parse(${strip}); t.mapResolution = 300; t.name = 'Edit loop, fixed'; return JSON.stringify(t, null, 2);`,
    ]);
    const pty = spawnCliInPty(['templates', 'edit', template.id], { env: { ...env, EDITOR: editor, CI: undefined } });
    expect((await pty.exited).code, pty.transcript()).toBe(0);
    const [, second] = shown();
    expect(second).toMatch(/^\/\/ reportctl: the edit was not applied/);
    expect(second).toMatch(/^\/\/ .*mapResolution/m);
    const after = await fetchTemplate(template.id);
    expect(after).toMatchObject({ name: 'Edit loop, fixed', mapResolution: 300 });
  });

  it('saving the reopened file unchanged gives up: exit 1, nothing sent', async () => {
    const template = await create('Edit give up');
    const { editor, shown } = scriptedEditor('give-up', [`return text.replace('"name": "Edit give up"', '"name": ');`, `return text;`]);
    const pty = spawnCliInPty(['templates', 'edit', template.id], { env: { ...env, EDITOR: editor, CI: undefined } });
    expect((await pty.exited).code).toBe(1);
    expect(shown()).toHaveLength(2);
    expect(shown()[1]).toMatch(/^\/\/ .*line \d+, column \d+/m);
    expect(pty.transcript()).toMatch(/edit given up/);
    expect((await fetchTemplate(template.id)).updatedAt).toBe(template.updatedAt);
  });

  it('without a terminal, invalid JSON is a usage error with line and column, as for --file', async () => {
    const template = await create('Edit bad JSON');
    const { editor } = scriptedEditor('bad-json', [`return text.replace('"name": "Edit bad JSON",', '"name": ,');`]);
    const edited = await runCli(['templates', 'edit', template.id], { env: { ...env, EDITOR: editor } });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/is not valid JSON: line \d+, column \d+: value expected; nothing was sent/);
    const file = join(files, 'bad.json');
    writeFileSync(file, '{\n  "name": ,\n}');
    const validated = await runCli(['templates', 'validate', '--file', file], { env });
    expect(validated.code).toBe(2);
    expect(validated.stderr).toMatch(/is not valid JSON: line 2, column 11: value expected/);
  });
});
