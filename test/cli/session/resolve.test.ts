// session/resolve.ts: templates and runs named by id prefix or name (an ambiguous name exits 2 with the candidates).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess, scriptedEditor, scriptedPrompter } from '../../helpers/in-process.js';
import { generalBody } from '../../contract/fixtures.js';
import { stepSymbol } from '../../../src/cli/commands/queue-runs/support/columns.js';

interface Created {
  id: string;
  name: string;
  updatedAt: string;
  mapResolution: number;
}

const suite = inProcessServiceForSuite();
const files = tempDir('reportctl-references-');

async function create(name: string): Promise<Created> {
  const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body: generalBody({ name }) });
  expect(response.status).toBe(201);
  return response.body as Created;
}

async function fetchTemplate(id: string): Promise<Created> {
  return (await api(suite.server, 'GET', `/api/v2/templates/${id}`, { key: suite.account.apiKey })).body as Created;
}

describe('templates and runs by id prefix or name', () => {
  it('a unique prefix of 6+ characters, or the exact name, finds the template', async () => {
    const template = await create('Lot 7 — stand count');
    for (const reference of [template.id.slice(0, 6), template.id.slice(0, 13), 'Lot 7 — stand count', template.id]) {
      const result = await runInProcess(['templates', 'get', reference, '--json'], { env: suite.env });
      expect(result.code, `${reference}: ${result.stderr}`).toBe(0);
      expect((JSON.parse(result.stdout) as Created).id).toBe(template.id);
    }
  });

  it('an ambiguous name exits 2 and lists the candidates with their names and creation times', async () => {
    const first = await create('Twin lot');
    const second = await create('Twin lot');
    const result = await runInProcess(['templates', 'get', 'Twin lot'], { env: suite.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Twin lot could be 2 templates/);
    for (const twin of [first, second]) expect(result.stderr).toMatch(new RegExp(`${twin.id}: Twin lot \\(created \\d{4}-`));
  });

  it('a name that matches nothing, or only the start of names, is exit 4 with the good message, never the bare 404', async () => {
    await create('San José norte');
    await create('San José sur');
    const started = await runInProcess(['templates', 'get', 'San José'], { env: suite.env });
    expect(started.code).toBe(4);
    expect(started.stderr).toBe(
      [
        'reportctl: template San José not found: no id, id prefix or name matches',
        'hint: see `reportctl templates list`',
        'hint: a name is matched whole; 2 start with it: San José norte, San José sur',
        '',
      ].join('\n'),
    );
    const none = await runInProcess(['templates', 'get', 'Dup nam'], { env: suite.env });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/^reportctl: template Dup nam not found: no id, id prefix or name matches\nhint: see `reportctl templates list`\n$/);
    const wholeId = await runInProcess(['templates', 'get', '00000000-0000-4000-8000-000000000000'], { env: suite.env });
    expect(wholeId.code).toBe(4);
    expect(wholeId.stderr).toMatch(/^reportctl: template 0{8}-\S+ not found: no id, id prefix or name matches\n/);
  });

  it('a prefix shorter than 6 characters is not taken as a prefix: exit 4, saying why', async () => {
    const template = await create('Short prefix');
    const result = await runInProcess(['templates', 'get', template.id.slice(0, 4)], { env: suite.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/at least 6 characters/);
  });

  it('replace takes a prefix too', async () => {
    const template = await create('Replace by prefix');
    const file = join(files, 'replace.json');
    writeFileSync(file, JSON.stringify(generalBody({ name: 'Replaced by prefix' })));
    const result = await runInProcess(['templates', 'replace', template.id.slice(0, 8), '--file', file], { env: suite.env });
    expect(result.code, result.stderr).toBe(0);
    expect((await fetchTemplate(template.id)).name).toBe('Replaced by prefix');
  });

  it('queue-runs get and watch take a prefix or the run name', async () => {
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'North lots', '--step', 'lot-1:counting');
    const run = await suite.server.admin<{ id: string; name: string }>('queue-runs', 'enqueue', '--queue', queue.id);
    const byPrefix = await runInProcess(['queue-runs', 'get', run.id.slice(0, 8), '--json'], { env: suite.env });
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect((JSON.parse(byPrefix.stdout) as { id: string }).id).toBe(run.id);
    const watched = await runInProcess(['queue-runs', 'watch', run.id.slice(0, 8), '--json', '--interval', '0.5', '--timeout', '0.5'], { env: suite.env });
    expect(watched.code).toBe(8);
    expect((JSON.parse(watched.stdout.split('\n')[0]!) as { id: string }).id).toBe(run.id);
  });
});

describe('templates delete', () => {
  it('a template that is not there is exit 4 before any --yes demand', async () => {
    const result = await runInProcess(['templates', 'delete', '00000000-0000-4000-8000-000000000000'], { env: suite.env });
    expect(result.code).toBe(4);
    expect(result.stderr).not.toMatch(/--yes/);
  });

  it('the confirmation names the template and its short id', async () => {
    const template = await create('Delete me — north field');
    const prompter = scriptedPrompter({ kind: 'confirm', message: `Delete template "Delete me — north field" (${template.id.slice(0, 8)})?`, answer: false });
    const result = await runInProcess(['templates', 'delete', template.id.slice(0, 8)], { env: { ...suite.env, CI: undefined }, tty: { stdin: true, stdout: true }, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect((await fetchTemplate(template.id)).name).toBe('Delete me — north field');
  });
});

describe('on a terminal', () => {
  /** stdout a terminal of `columns`; what it showed, stdout and stderr together. */
  async function onTerminal(args: string[], key: string, columns = 80): Promise<{ code: number | null; shown: string }> {
    const result = await runInProcess(args, { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: key }, tty: { stdout: true, columns } });
    return { code: result.code, shown: result.stdout + result.stderr };
  }

  it('tables at 80 columns show short ids and readable names; --wide shows whole ids', async () => {
    const fresh = await suite.server.newAccount();
    const created = await api(suite.server, 'POST', '/api/v2/templates', { key: fresh.apiKey, body: generalBody({ name: 'Lot 12 — replanting north field' }) });
    const id = (created.body as Created).id;
    const narrow = await onTerminal(['templates', 'list'], fresh.apiKey);
    expect(narrow.code).toBe(0);
    expect(narrow.shown).toContain(id.slice(0, 8));
    expect(narrow.shown).not.toContain(id);
    expect(narrow.shown).toContain('Lot 12 — replanting north field');
    const wide = await onTerminal(['templates', 'list', '--wide'], fresh.apiKey);
    expect(wide.code).toBe(0);
    expect(wide.shown).toContain(id);
  });

  it('a name of 200 characters is cut before the short columns: at 160 columns they stay whole', async () => {
    const fresh = await suite.server.newAccount();
    const body = generalBody({ name: `Lot ${'n'.repeat(196)}` });
    expect((await api(suite.server, 'POST', '/api/v2/templates', { key: fresh.apiKey, body })).status).toBe(201);
    const listed = await onTerminal(['templates', 'list'], fresh.apiKey, 160);
    expect(listed.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const row = listed.shown.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.includes('Lot nnn'))!;
    expect(row.length).toBeLessThanOrEqual(160);
    expect(row).toContain(' counting ');
    expect(row).toContain(` ${String(body.reportType)} `);
    expect(row).toMatch(/Lot n+… /);
  });

  it('an empty list says so on a terminal', async () => {
    const empty = await suite.server.newAccount();
    const listed = await onTerminal(['templates', 'list'], empty.apiKey);
    expect(listed.code).toBe(0);
    expect(listed.shown).toMatch(/no templates match/);
  });

  it('claimed and cancelled runs have symbols of their own', () => {
    const symbols = ['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled', 'skipped'].map(stepSymbol);
    expect(symbols).not.toContain('?');
    expect(new Set(symbols).size).toBe(symbols.length);
  });
});

describe('templates edit', () => {
  /** The JSON of `text` without the reasons a reopened file starts with. */
  const strip = (text: string) => JSON.parse(text.split('\n').filter((line) => !line.startsWith('//')).join('\n')) as Record<string, unknown>;
  const terminal = { stdin: true, stdout: true };

  it('on a terminal, a rejected edit reopens with the errors on top until it is fixed', async () => {
    const template = await create('Edit loop');
    const shown: string[] = [];
    const editor = scriptedEditor(
      (text) => JSON.stringify({ ...strip(text), mapResolution: 5 }, null, 2),
      (text) => {
        shown.push(text);
        return JSON.stringify({ ...strip(text), mapResolution: 300, name: 'Edit loop, fixed' }, null, 2);
      },
    );
    const edited = await runInProcess(['templates', 'edit', template.id], { env: { ...suite.env, CI: undefined }, tty: terminal, editor });
    expect(edited.code, edited.stderr).toBe(0);
    const [second] = shown;
    expect(second).toMatch(/^\/\/ reportctl: the edit was not applied/);
    expect(second).toMatch(/^\/\/ .*mapResolution/m);
    const after = await fetchTemplate(template.id);
    expect(after).toMatchObject({ name: 'Edit loop, fixed', mapResolution: 300 });
  });

  it('saving the reopened file unchanged gives up: exit 1, nothing sent', async () => {
    const template = await create('Edit give up');
    const shown: string[] = [];
    const editor = scriptedEditor(
      (text) => text.replace('"name": "Edit give up"', '"name": '),
      (text) => {
        shown.push(text);
        return text;
      },
    );
    const edited = await runInProcess(['templates', 'edit', template.id], { env: { ...suite.env, CI: undefined }, tty: terminal, editor });
    expect(edited.code).toBe(1);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^\/\/ .*line \d+, column \d+/m);
    expect(edited.stderr).toMatch(/edit given up/);
    expect((await fetchTemplate(template.id)).updatedAt).toBe(template.updatedAt);
  });

  it('without a terminal, invalid JSON is a usage error with line and column; validate says where too', async () => {
    const template = await create('Edit bad JSON');
    const editor = scriptedEditor((text) => text.replace('"name": "Edit bad JSON",', '"name": ,'));
    const edited = await runInProcess(['templates', 'edit', template.id], { env: suite.env, editor });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/is not valid JSON: line \d+, column \d+: value expected; nothing was sent/);
    const file = join(files, 'bad.json');
    writeFileSync(file, '{\n  "name": ,\n}');
    const validated = await runInProcess(['templates', 'validate', '--file', file], { env: suite.env });
    // For validate a document that is not JSON is a verdict, as a template that is not valid.
    expect(validated.code).toBe(1);
    expect(validated.stdout).toBe('invalid: not valid JSON: line 2, column 11: value expected\n');
  });
});
