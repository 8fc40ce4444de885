import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, tempDir } from '../../helpers/server.js';
import { generalBody } from '../../contract/fixtures.js';
import { runInProcess, inProcessServiceForSuite } from '../../helpers/in-process.js';
import { registerTemplatesValidate } from '../../../src/cli/commands/templates/validate.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { fakeClock } from '../../helpers/clock.js';
import { fullBody, minimalBody } from '../../helpers/http.js';
import { scriptedTemplates } from './support.js';

const catalogRequests = (stderr: string) => stderr.split('\n').filter((line) => /^> GET .*\/api\/v2\/catalogs\//.test(line)).length;

describe('templates validate', () => {
  const suite = inProcessServiceForSuite();
  const files = tempDir('reportctl-validate-');
  const write = (name: string, body: unknown) => {
    const path = join(files, name);
    writeFileSync(path, JSON.stringify(body));
    return path;
  };

  it('takes many files: a line each, exit 1 when any fails, the closest catalog value as a hint', async () => {
    const good = write('good.json', generalBody());
    const bad = write('bad.json', generalBody({ reportType: 'plant_count' }));
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const result = await runInProcess(['templates', 'validate', good, bad], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${good}: valid\n`);
    expect(result.stdout).toContain(`${bad}: invalid: 1 issue\n`);
    expect(result.stdout).toMatch(/did you mean plant_count_summary\?/);
    const json = await runInProcess(['templates', 'validate', good, bad, '--json'], { env });
    expect(json.code).toBe(1);
    expect(json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { file: string; valid: boolean })).toEqual([
      expect.objectContaining({ file: good, valid: true }),
      expect.objectContaining({ file: bad, valid: false }),
    ]);
  });

  it('gives every file its verdict: unreadable and unparsable files are invalid with a plain reason, the rest still checked; one unreadable makes it exit 2', async () => {
    const good = write('fine.json', generalBody());
    const missing = join(files, 'missing.json');
    const directory = join(files, 'a-directory.json');
    mkdirSync(directory, { recursive: true });
    const broken = join(files, 'broken.json');
    writeFileSync(broken, '{"name": "x",\n  "analysisType": }');
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const result = await runInProcess(['templates', 'validate', missing, directory, broken, good], { env });
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n').filter((line) => !line.startsWith(' ') && line !== '')).toEqual([
      `${missing}: invalid: cannot read it: no such file`,
      `${directory}: invalid: cannot read it: it is a directory, not a file`,
      `${broken}: invalid: not valid JSON: line 2, column 19: value expected`,
      `${good}: valid`,
    ]);
    expect(result.stderr).not.toMatch(/ENOENT|EISDIR/);
    const json = await runInProcess(['templates', 'validate', missing, good, '--json'], { env });
    expect(json.code).toBe(2);
    // A file that reads but is not a template is a verdict, exit 1.
    expect((await runInProcess(['templates', 'validate', broken, good], { env })).code).toBe(1);
    expect(json.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { file: missing, valid: false, issues: [], reason: 'cannot read it: no such file' },
      { file: good, valid: true, issues: [] },
    ]);
  });

  it('reports schema and catalog mistakes in one run, each path once, every enum with its values and closest match, hints in JSON', async () => {
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const margins = { top: 'two', right: '12', bottom: 10, left: 10 };
    const mixed = write('mixed.json', generalBody({ name: '', reportType: 'plant_count', paperSize: 'A4', margins }));
    const result = await runInProcess(['templates', 'validate', mixed], { env });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('  name: Too small: expected string to have >=1 characters');
    expect(lines).toContain('  reportType: Invalid reportType');
    expect(lines).toContain('hint: paperSize: valid: letter, legal, a4, a3 (did you mean a4?)');
    expect(lines).toContain('hint: margins.top: must be a JSON number, not text: "top": 10, not "top": "two"');
    expect(lines).toContain('hint: margins.right: must be a JSON number, not text; write "right": 12');
    expect(result.stdout).toMatch(/^hint: reportType: valid for counting: .*\(did you mean plant_count_summary\?\)$/m);
    const counting = write('countin.json', generalBody({ analysisType: 'countin' }));
    const typo = await runInProcess(['templates', 'validate', counting], { env });
    expect(typo.stdout).toContain('hint: analysisType: valid: counting, replanting, path (did you mean counting?)\n');
  });

  it('templates create says the same as validate: schema and catalog issues together, each path once', async () => {
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const file = write('create.json', generalBody({ name: '', reportType: 'plant_count', paperSize: 'A4' }));
    const created = await runInProcess(['templates', 'create', '--file', file], { env });
    expect(created.code).toBe(1);
    const lines = created.stderr.split('\n');
    expect(lines).toContain('  name: Too small: expected string to have >=1 characters');
    expect(lines).toContain('  reportType: Invalid reportType');
    expect(lines).toContain('hint: paperSize: valid: letter, legal, a4, a3 (did you mean a4?)');
  });

  it('reads the catalogs once per command, keeps them, and revalidates them with ETags before each use', async () => {
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const many = Array.from({ length: 40 }, (_, at) => write(`many-${at}.json`, generalBody({ name: `Lot ${at}` })));
    const first = await runInProcess(['templates', 'validate', ...many, '--verbose'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(catalogRequests(first.stderr)).toBe(3);
    // serve says no-cache: the next command asks again with each ETag, and a 304 keeps the copy.
    const second = await runInProcess(['templates', 'validate', many[0]!, '--verbose'], { env });
    expect(second.code).toBe(0);
    expect(catalogRequests(second.stderr)).toBe(3);
    expect(second.stderr.match(/^> if-none-match: "/gm)).toHaveLength(3);
    expect(second.stderr.match(/^< 304 /gm)).toHaveLength(3);
  });

  it('a service that allows max-age is not asked again until the copy is stale', async () => {
    const env = { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() };
    const one = write('max-age.json', generalBody());
    expect((await runInProcess(['templates', 'validate', one], { env })).code).toBe(0);
    const cacheDir = join(env.REPORTCTL_CONFIG_DIR, 'cache');
    const [file] = readdirSync(cacheDir).filter((name) => name.startsWith('catalogs-'));
    const cache = JSON.parse(readFileSync(join(cacheDir, file!), 'utf8')) as { checkedAt: number; maxAgeMs: number };
    expect(cache.maxAgeMs).toBe(0);
    // As a service whose Cache-Control said max-age=300 would have left it, checked just now.
    const clock = fakeClock();
    writeFileSync(join(cacheDir, file!), JSON.stringify({ ...cache, maxAgeMs: 300_000, checkedAt: clock.now() - 299_000 }));
    const fresh = await runInProcess(['templates', 'validate', one, '--verbose'], { env, clock });
    expect(catalogRequests(fresh.stderr)).toBe(0);
    await clock.sleep(1_000);
    const stale = await runInProcess(['templates', 'validate', one, '--verbose'], { env, clock });
    expect(catalogRequests(stale.stderr)).toBe(3);
  });

  it('--offline needs no service and says what it checked against', async () => {
    const good = write('offline.json', generalBody());
    const result = await runInProcess(['templates', 'validate', '--offline', good], { env: { REPORTCTL_BASE_URL: 'http://127.0.0.1:9', REPORTCTL_CONFIG_DIR: tempDir() } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('valid\n');
    expect(result.stderr).toMatch(/^checked offline, against the catalogs bundled with reportctl/);
  });

  it('templates list --report-type is checked against the catalog', async () => {
    const result = await runInProcess(['templates', 'list', '--report-type', 'plant_count'], { env: { ...suite.env, REPORTCTL_CONFIG_DIR: tempDir() } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no report type plant_count in the catalog; did you mean plant_count_summary\?/);
  });

  it("serve's catalogs carry an ETag and Cache-Control: no-cache, and a matching If-None-Match is a 304", async () => {
    const first = await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey });
    // Revalidated on every read, so an administrator's catalog change shows at once.
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
});

describe('templates validate flags', () => {
  it('--unique-names: a name another file of the folder holds is an issue of each such file, given or not; every verdict names its file', async () => {
    const folder = tempDir('reportctl-validate-names-');
    const place = (name: string, body: unknown) => {
      writeFileSync(join(folder, name), JSON.stringify(body, null, 2));
      return join(folder, name);
    };
    const first = place('lot-7.json', generalBody({ name: 'Lot 7' }));
    const second = place('lot-7-copy.json', generalBody({ name: 'Lot 7', paperSize: 'a4' }));
    const other = place('lot-8.json', generalBody({ name: 'Lot 8' }));
    writeFileSync(join(folder, 'notes.json'), '{');
    const env = { REPORTCTL_CONFIG_DIR: tempDir() };
    // Only the second file given, as pre-commit gives the one file a commit stages.
    const one = await runInProcess(['templates', 'validate', '--offline', '--unique-names', second, other], { env });
    expect(one.code).toBe(1);
    expect(one.stdout).toContain(`${second}: invalid: 1 issue\n  name: "Lot 7" is also the name in ${first}; each file of a folder needs its own\n`);
    expect(one.stdout).toContain(`${other}: valid\n`);
    const alone = await runInProcess(['templates', 'validate', '--offline', '--unique-names', other], { env });
    expect(alone.stdout).toBe(`${other}: valid\n`);
    // Without the flag the folder is not read.
    expect((await runInProcess(['templates', 'validate', '--offline', second], { env })).stdout).toBe('valid\n');
    const broken = join(folder, 'notes.json');
    const named = await runInProcess(['templates', 'validate', '--offline', '--unique-names', broken], { env });
    expect(named.stdout).toBe(`${broken}: invalid: not valid JSON: line 1, column 2: close brace expected\n`);
  });

  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesValidate(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'validate', 'a.json'], { options: {}, args: [['a.json']] }],
      [['templates', 'validate', 'a.json', 'b.json', '--json'], { options: { json: true }, args: [['a.json', 'b.json']] }],
      [['templates', 'validate', '--file', '-', '--offline'], { options: { file: '-', offline: true }, args: [[]] }],
      [['templates', 'validate', 'a.json', '--unique-names'], { options: { uniqueNames: true }, args: [['a.json']] }],
      [['templates', 'validate'], { options: {}, args: [[]] }],
      [['templates', 'validate', '-f'], { usage: /option '-f, --file <path>' argument missing/ }],
      [['templates', 'validate', 'a.json', '--strict'], { usage: /unknown option '--strict'/ }],
    ],
  );
});

describe('templates validate from a script', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli, jsonFile, templateTotal } = scriptedTemplates(suite);

  it('a valid document is exit 0 "valid" and creates nothing', async () => {
    const result = await cli(suite.account, ['validate', '--file', jsonFile('validate-ok.json', fullBody(catalogs()))]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('valid');
    expect(await templateTotal(suite.account)).toBe(0);
  });

  it('an unknown statistic is exit 1 with the issue at its path', async () => {
    const body = { ...minimalBody(catalogs()), selectedStatistics: ['totalPlants', 'plantsPerHa'] };
    const result = await cli(suite.account, ['validate', '--file', jsonFile('validate-bad.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('selectedStatistics.1');
  });

  it('--json reports validity and the issues as one object', async () => {
    const body = { ...minimalBody(catalogs()), mapResolution: '150' };
    const result = await cli(suite.account, ['validate', '--file', jsonFile('validate-json.json', body), '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; issues: Array<{ path: string }> };
    expect(report.valid).toBe(false);
    expect(report.issues.map((issue) => issue.path)).toContain('mapResolution');
  });
});
