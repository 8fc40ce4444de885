// `reportctl templates ...`: the CLI in the test process (stdin and stdout are not a TTY)
// against the real service started in the process. Expected values come from the README's decisions and
// from the service itself (the API or its catalogs).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSI, type CliResult } from '../helpers/cli.js';
import { runInProcess, scriptedEditor, startInProcessService, type InProcessOptions, type InProcessService } from '../helpers/in-process.js';
import {
  createTemplate,
  fullBody,
  inBatches,
  listAll,
  minimalBody,
  readCatalogs,
  type CatalogsOverHttp,
  type Page,
  type TemplateDoc,
} from '../helpers/http.js';
import { api, tempDir, type IssuedKey } from '../helpers/server.js';

const UUID_LINE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

let server: InProcessService;
let catalogs: CatalogsOverHttp;
const files = tempDir('reportctl-templates-cli-');

beforeAll(async () => {
  server = await startInProcessService();
  const reader = await server.newAccount();
  catalogs = await readCatalogs(server, reader.apiKey);
});

afterAll(async () => {
  await server?.stop();
});

/** The CLI as a script would run it, with the account's key in the environment. */
function cli(account: IssuedKey, args: string[], env: Record<string, string | undefined> = {}, options: InProcessOptions = {}): Promise<CliResult> {
  return runInProcess(['templates', ...args], {
    ...options,
    env: { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey, CI: undefined, VISUAL: undefined, EDITOR: undefined, ...env },
  });
}

function jsonFile(name: string, content: unknown): string {
  const path = join(files, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

async function getTemplate(account: IssuedKey, id: string): Promise<{ status: number; template: TemplateDoc }> {
  const response = await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey });
  return { status: response.status, template: response.body as TemplateDoc };
}

async function templateTotal(account: IssuedKey): Promise<number> {
  const response = await api(server, 'GET', '/api/v2/templates?limit=1', { key: account.apiKey });
  return (response.body as Page<TemplateDoc>).total;
}

describe('templates list', () => {
  const TOTAL = 150;
  let account: IssuedKey;

  beforeAll(async () => {
    account = await server.newAccount({ templateLimit: 1000 });
    const analysisTypes = ['counting', 'replanting', 'path'] as const;
    await inBatches(
      Array.from({ length: TOTAL }, (_, index) => () => {
        const analysisType = analysisTypes[index % 3]!;
        const category = index % 5 === 0 ? 'vegetation_index' : 'general';
        return createTemplate(server, account.apiKey, minimalBody(catalogs, { name: `lot ${index}`, analysisType, category }));
      }),
      8,
    );
  }, 120_000);

  it('prints tab-separated rows without a header or colour when piped, the footer on stderr only', async () => {
    const result = await cli(account, ['list']);
    expect(result.code, result.stderr).toBe(0);
    const expected = (await api(server, 'GET', '/api/v2/templates', { key: account.apiKey })).body as Page<TemplateDoc>;
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    expect(result.stdout).not.toMatch(ANSI);
    expect(lines[0]).not.toMatch(/^ID\t/);
    const rows = lines.map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(expected.data.map((template) => template.id));
    for (const [row, template] of rows.map((row, index) => [row, expected.data[index]!] as const)) {
      expect(row).toEqual([template.id, template.name, template.analysisType, template.reportType, template.updatedAt]);
    }
    expect(result.stderr).toContain(`showing 20 of ${TOTAL}`);
    expect(result.stdout).not.toContain('showing');
  });

  it('--json prints what the service returns for the same query', async () => {
    const result = await cli(account, ['list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const expected = await api(server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
    expect(result.stderr).toBe('');

    const paged = await cli(account, ['list', '--json', '--page', '3', '--limit', '7']);
    expect(JSON.parse(paged.stdout)).toEqual((await api(server, 'GET', '/api/v2/templates?page=3&limit=7', { key: account.apiKey })).body);
  });

  it('passes the filters to the service', async () => {
    const query = 'analysisType=replanting&reportCategory=vegetation_index&limit=100';
    const expected = (await api(server, 'GET', `/api/v2/templates?${query}`, { key: account.apiKey })).body as Page<TemplateDoc>;
    expect(expected.total).toBeGreaterThan(0);
    expect(expected.total).toBeLessThan(TOTAL);
    const result = await cli(account, ['list', '--analysis-type', 'replanting', '--report-category', 'vegetation_index', '--limit', '100', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);

    const reportType = catalogs.reportTypes.path[0]!.key;
    const byReportType = await cli(account, ['list', '--report-type', reportType, '--all']);
    const rows = byReportType.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    const all = await listAll<TemplateDoc>(server, account.apiKey, '/api/v2/templates', `reportType=${reportType}`);
    expect(rows.map((row) => row[0])).toEqual(all.map((template) => template.id));
    for (const row of rows) expect(row[3]).toBe(reportType);
  });

  it('refuses a filter value outside the allowed set with exit code 2', async () => {
    const result = await cli(account, ['list', '--analysis-type', 'harvest']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/counting, replanting, path|counting.*replanting.*path/);
  });

  it('--all --json returns every template exactly once, in the shape of a page', async () => {
    const result = await cli(account, ['list', '--all', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { data: items, ...page } = JSON.parse(result.stdout) as { data: TemplateDoc[] };
    expect(page).toEqual({ total: TOTAL, page: 1, limit: TOTAL });
    expect(items).toHaveLength(TOTAL);
    const ids = items.map((template) => template.id);
    expect(new Set(ids).size).toBe(TOTAL);
    const all = await listAll<TemplateDoc>(server, account.apiKey, '/api/v2/templates');
    expect(ids).toEqual(all.map((template) => template.id));
  });

  it('a page past the end is exit 0 with nothing on stdout', async () => {
    const result = await cli(account, ['list', '--page', '99']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const json = await cli(account, ['list', '--page', '99', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ data: [], total: TOTAL, page: 99 });
  });

  it('an account without templates lists nothing and succeeds', async () => {
    const empty = await server.newAccount();
    const result = await cli(empty, ['list']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    // A list's JSON has one shape, with or without --all.
    const [page, all] = await Promise.all([cli(empty, ['list', '--json']), cli(empty, ['list', '--all', '--json'])]);
    expect(JSON.parse(page.stdout)).toEqual({ total: 0, page: 1, limit: 20, data: [] });
    expect(JSON.parse(all.stdout)).toEqual({ total: 0, page: 1, limit: 0, data: [] });
  });
});

describe('templates get', () => {
  let account: IssuedKey;
  let template: TemplateDoc;

  beforeAll(async () => {
    account = await server.newAccount();
    template = await createTemplate(server, account.apiKey, fullBody(catalogs, 'get me'));
  });

  it('--json prints the document as the service returns it', async () => {
    const result = await cli(account, ['get', template.id, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((await getTemplate(account, template.id)).template);
  });

  it('without --json shows the fields for a person, plain when piped', async () => {
    const result = await cli(account, ['get', template.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stdout).toContain(template.name);
    expect(result.stdout).toContain(template.formula!);
  });

  it('an unknown id is exit 4', async () => {
    const result = await cli(account, ['get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/not found/i);
  });

  it('another account\'s template is exit 4 as well', async () => {
    const stranger = await server.newAccount();
    expect((await cli(stranger, ['get', template.id])).code).toBe(4);
  });

  it('no key is exit 3 with a hint on how to set one', async () => {
    const result = await cli(account, ['get', template.id], { REPORTCTL_API_KEY: undefined });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/auth login|REPORTCTL_API_KEY/);
    expect(result.stdout).toBe('');
  });

  it('an unreachable service is exit 6', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const result = await cli(account, ['get', template.id], { REPORTCTL_BASE_URL: 'http://127.0.0.1:1' });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/cannot reach|ECONNREFUSED/);
  });
});

describe('templates presets and create --from-preset', () => {
  let account: IssuedKey;

  beforeAll(async () => {
    account = await server.newAccount();
  });

  it('presets --json prints the service\'s page of presets', async () => {
    const result = await cli(account, ['presets', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((await api(server, 'GET', '/api/v2/templates/presets', { key: account.apiKey })).body);
  });

  it('creates a template from a preset and prints only its id', async () => {
    const result = await cli(account, ['create', '--from-preset', 'preset-counting-summary', '--name', 'Lot 7 — stand count']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(UUID_LINE);
    const { status, template } = await getTemplate(account, result.stdout.trim());
    expect(status).toBe(200);
    expect(template.name).toBe('Lot 7 — stand count');
    expect(template.reportType).toBe('plant_count_summary');
  });

  it('--from-preset without --name and without a terminal is a usage error naming --name', async () => {
    const before = await templateTotal(account);
    const result = await cli(account, ['create', '--from-preset', 'preset-counting-summary']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--name');
    expect(await templateTotal(account)).toBe(before);
  });

  it('an unknown preset is exit 4 with a did-you-mean hint', async () => {
    const result = await cli(account, ['create', '--from-preset', 'preset-counting-sumary', '--name', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('did you mean preset-counting-summary?');
  });

  it('--file and --from-preset together are a usage error', async () => {
    const file = jsonFile('both.json', minimalBody(catalogs));
    const result = await cli(account, ['create', '--file', file, '--from-preset', 'preset-counting-summary', '--name', 'x']);
    expect(result.code).toBe(2);
  });
});

describe('templates create --file', () => {
  let account: IssuedKey;

  beforeAll(async () => {
    account = await server.newAccount();
  });

  it('creates the template in the file', async () => {
    const body = fullBody(catalogs, 'from a file');
    const result = await cli(account, ['create', '--file', jsonFile('valid.json', body)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(UUID_LINE);
    const { template } = await getTemplate(account, result.stdout.trim());
    expect(template).toMatchObject(body);
  });

  it('reads the document from stdin with --file -', async () => {
    const body = minimalBody(catalogs, { name: 'from stdin' });
    const result = await cli(account, ['create', '--file', '-', '--json'], {}, { input: JSON.stringify(body) });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(body);
  });

  it('a number sent as text fails the local check: exit 1, nothing created, the field explained', async () => {
    const before = await templateTotal(account);
    const body = { ...minimalBody(catalogs, { name: 'text number' }), mapResolution: '150' };
    const result = await cli(account, ['create', '--file', jsonFile('text-number.json', body), '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('mapResolution');
    expect(result.stderr).toMatch(/must be a (JSON )?number/);
    expect(result.stderr).toMatch(/nothing was sent/);
    // --verbose traces every request: none of them is the POST.
    expect(result.stderr).not.toMatch(/^> POST /m);
    expect(await templateTotal(account)).toBe(before);
  });

  it('a duplicate statistic, a control character in the name and an unknown field are refused locally, each named', async () => {
    const before = await templateTotal(account);
    const statistic = catalogs.statistics.counting[0]!;
    const body = { ...minimalBody(catalogs), name: 'bell\u0007name', selectedStatistics: [statistic, statistic], colour: 'red' };
    const result = await cli(account, ['create', '--file', jsonFile('local-issues.json', body), '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('is not a valid template (checked locally; nothing was sent)');
    expect(result.stderr).toMatch(/^ {2}name: must not contain control characters$/m);
    expect(result.stderr).toContain(`\n  selectedStatistics.1: duplicate statistic ${statistic}\n`);
    expect(result.stderr).toContain('colour: Unknown field colour');
    expect(result.stderr).not.toMatch(/^> POST /m);
    expect(await templateTotal(account)).toBe(before);
  });

  it('a report type not in the catalog comes back from the service and is explained with the catalogs', async () => {
    const before = await templateTotal(account);
    const body = { ...minimalBody(catalogs, { name: 'typo' }), reportType: 'plant_count' };
    const result = await cli(account, ['create', '--file', jsonFile('report-type.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/service rejected/);
    for (const entry of catalogs.reportTypes.counting) expect(result.stderr).toContain(entry.key);
    expect(result.stderr).toContain('did you mean plant_count_summary?');
    expect(await templateTotal(account)).toBe(before);
  });

  it('an unknown statistic is answered with the valid statistics', async () => {
    const body = { ...minimalBody(catalogs, { name: 'stat typo' }), selectedStatistics: ['totalPlants', 'plantsPerHectar'] };
    const result = await cli(account, ['create', '--file', jsonFile('statistic.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('selectedStatistics.1');
    for (const statistic of catalogs.statistics.counting) expect(result.stderr).toContain(statistic);
    expect(result.stderr).toContain('did you mean plantsPerHectare?');
  });

  it('a malformed JSON file is a usage error', async () => {
    const result = await cli(account, ['create', '--file', jsonFile('malformed.json', '{"name": "x",')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it('a missing file is a usage error', async () => {
    const result = await cli(account, ['create', '--file', join(files, 'does-not-exist.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ENOENT|cannot read/);
  });

  it('with no flags and no terminal, it names the flags it needs (also with --no-input and CI=true)', async () => {
    for (const [args, env] of [
      [['create'], {}],
      [['create', '--no-input'], {}],
      [['create'], { CI: 'true' }],
    ] as const) {
      const result = await cli(account, [...args], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--file');
      expect(result.stderr).toContain('--from-preset');
    }
  });
});

describe('templates replace', () => {
  it('replaces the whole document: a field left out is gone (back to its default)', async () => {
    const account = await server.newAccount();
    const original = await createTemplate(server, account.apiKey, fullBody(catalogs, 'before'));
    expect(original.selectedStatistics.length).toBeGreaterThan(0);
    const { colorScale: _colorScale, selectedStatistics: _statistics, margins: _margins, ...rest } = fullBody(catalogs, 'after');
    const result = await cli(account, ['replace', original.id, '--file', jsonFile('replace.json', rest)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${original.id}\n`);

    const { template } = await getTemplate(account, original.id);
    expect(template.name).toBe('after');
    expect(template.selectedStatistics).toEqual([]);
    expect(template.colorScale).toEqual(catalogs.viDefaults.colorScales[template.indexName!]);
    expect(template.colorScale).not.toEqual(original.colorScale);
    expect(template.margins).toEqual(catalogs.viDefaults.defaults.margins);
    expect(template.createdAt).toBe(original.createdAt);
  });

  it('an unknown id is exit 4', async () => {
    const account = await server.newAccount();
    const result = await cli(account, ['replace', '00000000-0000-4000-8000-000000000000', '--file', jsonFile('replace-404.json', minimalBody(catalogs))]);
    expect(result.code).toBe(4);
  });
});

describe('templates edit', () => {
  let account: IssuedKey;

  beforeAll(async () => {
    account = await server.newAccount();
  });

  /** The edit as a person makes it: the JSON read, `change` applied, written back (`indent` 0: compact). */
  const editJson =
    (change: (template: Record<string, unknown>) => void, indent = 2) =>
    (text: string) => {
      const template = JSON.parse(text) as Record<string, unknown>;
      change(template);
      return JSON.stringify(template, null, indent);
    };

  it('replaces the template with what $EDITOR saved', async () => {
    // The real editor: EDITOR is run through the shell with the file, as on a user's machine.
    const path = join(files, 'rename.mjs');
    writeFileSync(
      path,
      `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
writeFileSync(${JSON.stringify(join(files, 'rename.path'))}, file);
const template = JSON.parse(readFileSync(file, 'utf8'));
template.name = 'edited in the editor';
writeFileSync(file, JSON.stringify(template, null, 2));
`,
    );
    const template = await createTemplate(server, account.apiKey, fullBody(catalogs, 'edit me'));
    const result = await cli(account, ['edit', template.id], { EDITOR: `"${process.execPath}" "${path}"` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${template.id}\n`);
    const after = await getTemplate(account, template.id);
    expect(after.template.name).toBe('edited in the editor');
    expect(after.template.formula).toBe(template.formula);
    // Once sent, the temporary copy is gone.
    expect(existsSync(readFileSync(join(files, 'rename.path'), 'utf8'))).toBe(false);
  });

  it('an unchanged file sends nothing', async () => {
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'leave me' }));
    const editor = scriptedEditor((text) => text);
    const result = await cli(account, ['edit', template.id], {}, { editor });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no changes/);
    expect(result.stdout).toBe('');
    expect((await getTemplate(account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('a file only re-formatted by the editor counts as unchanged', async () => {
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'reformat me' }));
    const result = await cli(account, ['edit', template.id], {}, { editor: scriptedEditor(editJson(() => {}, 0)) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no changes/);
    expect((await getTemplate(account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('an invalid edit is refused locally: exit 1, nothing sent, the field named', async () => {
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'break me' }));
    const editor = scriptedEditor(editJson((edited) => (edited.mapResolution = 5)));
    const result = await cli(account, ['edit', template.id], {}, { editor });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('mapResolution');
    expect(result.stderr).toMatch(/nothing was sent/);
    const after = (await getTemplate(account, template.id)).template;
    expect(after.updatedAt).toBe(template.updatedAt);
    expect(after.mapResolution).toBe(template.mapResolution);
    // The edit is kept for the user to fix, and the hint says where.
    const [file] = editor.opened;
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ mapResolution: 5 });
    expect(result.stderr).toContain(file);
  });

  it('an editor that fails sends nothing', async () => {
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'editor fails' }));
    const result = await cli(account, ['edit', template.id], {}, { editor: scriptedEditor(() => ({ exitStatus: 1 })) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the editor exited with status 1; nothing was sent/);
    expect((await getTemplate(account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('without EDITOR or VISUAL and no terminal it is a usage error naming EDITOR', async () => {
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'no editor' }));
    const result = await cli(account, ['edit', template.id]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('EDITOR');
  });
});

describe('templates delete', () => {
  it('needs --yes without a terminal; with it, deletes; a second time is exit 4', async () => {
    const account = await server.newAccount();
    const template = await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: 'delete me' }));

    const refused = await cli(account, ['delete', template.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await getTemplate(account, template.id)).status).toBe(200);

    const deleted = await cli(account, ['delete', template.id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('');
    expect((await getTemplate(account, template.id)).status).toBe(404);

    const again = await cli(account, ['delete', template.id, '--yes']);
    expect(again.code).toBe(4);
  });
});

describe('templates validate', () => {
  let account: IssuedKey;

  beforeAll(async () => {
    account = await server.newAccount();
  });

  it('a valid document is exit 0 "valid" and creates nothing', async () => {
    const result = await cli(account, ['validate', '--file', jsonFile('validate-ok.json', fullBody(catalogs))]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('valid');
    expect(await templateTotal(account)).toBe(0);
  });

  it('an unknown statistic is exit 1 with the issue at its path', async () => {
    const body = { ...minimalBody(catalogs), selectedStatistics: ['totalPlants', 'plantsPerHa'] };
    const result = await cli(account, ['validate', '--file', jsonFile('validate-bad.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('selectedStatistics.1');
  });

  it('--json reports validity and the issues as one object', async () => {
    const body = { ...minimalBody(catalogs), mapResolution: '150' };
    const result = await cli(account, ['validate', '--file', jsonFile('validate-json.json', body), '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; issues: Array<{ path: string }> };
    expect(report.valid).toBe(false);
    expect(report.issues.map((issue) => issue.path)).toContain('mapResolution');
  });
});
