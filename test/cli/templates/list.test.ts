import { beforeAll, describe, expect, it } from 'vitest';
import { registerTemplatesList } from '../../../src/cli/commands/templates/list.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { ANSI } from '../../helpers/cli.js';
import { createTemplate, inBatches, listAll, minimalBody, type Page, type TemplateDoc } from '../../helpers/http.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { api, type IssuedKey } from '../../helpers/server.js';
import { scriptedTemplates } from './support.js';

describe('templates list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesList(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'list'], { options: {} }],
      [['templates', 'ls', '--analysis-type', 'counting', '--report-type', 'plant_count', '--report-category', 'general'], { options: { analysisType: 'counting', reportType: 'plant_count', reportCategory: 'general' } }],
      [['templates', 'list', '--page', '2', '--limit', '50', '--wide'], { options: { page: 2, limit: 50, wide: true } }],
      [['templates', 'list', '--all', '--no-wide', '--json'], { options: { all: true, wide: false, json: true } }],
      [['templates', 'list', '--analysis-type', 'countng'], { usage: /--analysis-type.*did you mean counting\?/ }],
      [['templates', 'list', '--report-category', 'vegetation'], { usage: /--report-category.*Valid: general, vegetation_index/ }],
      [['templates', 'list', '--limit', '101'], { usage: /--limit.*expected a whole number from 1 to 100/ }],
      [['templates', 'list', '--page', '0'], { usage: /--page.*expected a whole number from 1 up/ }],
      [['templates', 'list', 'extra'], { usage: /too many arguments/ }],
    ],
  );
});

describe('templates list', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli } = scriptedTemplates(suite);

  const TOTAL = 150;
  let account: IssuedKey;

  beforeAll(async () => {
    account = await suite.server.newAccount({ templateLimit: 1000 });
    const analysisTypes = ['counting', 'replanting', 'path'] as const;
    await inBatches(
      Array.from({ length: TOTAL }, (_, index) => () => {
        const analysisType = analysisTypes[index % 3]!;
        const category = index % 5 === 0 ? 'vegetation_index' : 'general';
        return createTemplate(suite.server, account.apiKey, minimalBody(catalogs(), { name: `lot ${index}`, analysisType, category }));
      }),
      8,
    );
  }, 120_000);

  it('prints tab-separated rows without a header or colour when piped, the footer (with --verbose) on stderr only', async () => {
    const result = await cli(account, ['list', '--verbose']);
    expect(result.code, result.stderr).toBe(0);
    const expected = (await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey })).body as Page<TemplateDoc>;
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
    const expected = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
    expect(result.stderr).toBe('');

    const paged = await cli(account, ['list', '--json', '--page', '3', '--limit', '7']);
    expect(JSON.parse(paged.stdout)).toEqual((await api(suite.server, 'GET', '/api/v2/templates?page=3&limit=7', { key: account.apiKey })).body);
  });

  it('passes the filters to the service', async () => {
    const query = 'analysisType=replanting&reportCategory=vegetation_index&limit=100';
    const expected = (await api(suite.server, 'GET', `/api/v2/templates?${query}`, { key: account.apiKey })).body as Page<TemplateDoc>;
    expect(expected.total).toBeGreaterThan(0);
    expect(expected.total).toBeLessThan(TOTAL);
    const result = await cli(account, ['list', '--analysis-type', 'replanting', '--report-category', 'vegetation_index', '--limit', '100', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);

    const reportType = catalogs().reportTypes.path[0]!.key;
    const byReportType = await cli(account, ['list', '--report-type', reportType, '--all']);
    const rows = byReportType.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    const all = await listAll<TemplateDoc>(suite.server, account.apiKey, '/api/v2/templates', `reportType=${reportType}`);
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
    const all = await listAll<TemplateDoc>(suite.server, account.apiKey, '/api/v2/templates');
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
    const empty = await suite.server.newAccount();
    const result = await cli(empty, ['list']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    // A list's JSON has one shape, with or without --all.
    const [page, all] = await Promise.all([cli(empty, ['list', '--json']), cli(empty, ['list', '--all', '--json'])]);
    expect(JSON.parse(page.stdout)).toEqual({ total: 0, page: 1, limit: 20, data: [] });
    expect(JSON.parse(all.stdout)).toEqual({ total: 0, page: 1, limit: 0, data: [] });
  });
});
