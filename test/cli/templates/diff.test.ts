import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesDiff } from '../../../src/cli/commands/templates/diff.js';
import { bodyFor, entryWhere, generalBody } from '../../contract/fixtures.js';
import { ANSI, runCli } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, mockAgent } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { accountOn, colourStopsBody, colourStopsTemplate, names, rawEscapes, readJson, writeJson } from './support.js';

describe('templates diff flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDiff(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'diff', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--prune', '--json'], { options: { prune: true, json: true }, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--out', 'plan.json'], { options: { out: 'plan.json' }, args: ['templates/'] }],
      [['templates', 'diff'], { usage: /missing required argument 'dir'/ }],
      [['templates', 'diff', 'templates/', '--yes'], { usage: /unknown option '--yes'/ }],
    ],
  );
});

// A folder of template files against the service, in process against serve's app; the built
// binary for its exit codes.
const suite = inProcessServiceForSuite();
const account = (options: { templateLimit?: number } = {}) => accountOn(suite.server, options);

describe('templates diff', () => {
  it('exits 0 on a pulled folder, 10 with a unified diff per change, a create and (with --prune) a delete', async () => {
    const { run, create, templates } = await account();
    await create(generalBody({ name: 'Alpha' }));
    const beta = await create(generalBody({ name: 'Beta' }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);

    const same = await run(['templates', 'diff', dir]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe('');
    expect(same.stderr).toContain('0 to create, 0 to replace, 0 to delete, 2 unchanged');

    const alpha = readJson(join(dir, 'alpha.json'));
    writeJson(join(dir, 'alpha.json'), { ...alpha, mapResolution: 600 });
    writeJson(join(dir, 'gamma.json'), generalBody({ name: 'Gamma' }));
    rmSync(join(dir, 'beta.json'));

    const changed = await run(['templates', 'diff', dir]);
    expect(changed.code, changed.stderr).toBe(10);
    expect(changed.stdout).toMatch(/^--- service\/\S+ "Alpha"\n\+\+\+ \S+alpha\.json\n@@ -\d+,7 \+\d+,7 @@\n(?: .*\n){3}- {2}"mapResolution": 150,\n\+ {2}"mapResolution": 600,\n/m);
    expect(changed.stdout).toMatch(/^--- \/dev\/null\n\+\+\+ \S+gamma\.json \(new: "Gamma"\)\n@@ -0,0 \+1,\d+ @@\n\+\{\n\+ {2}"name": "Gamma",$/m);
    // Without --prune a template in no file is not a difference.
    expect(changed.stdout).not.toContain('Beta');
    expect(changed.stderr).toContain('1 to create, 1 to replace, 0 to delete, 0 unchanged');

    const pruned = await run(['templates', 'diff', dir, '--prune', '--json']);
    expect(pruned.code).toBe(10);
    const changes = JSON.parse(pruned.stdout) as { action: string; name: string; id?: string; diff?: string }[];
    expect(changes.map(({ action, name }) => [action, name])).toEqual([
      ['replace', 'Alpha'],
      ['create', 'Gamma'],
      ['delete', 'Beta'],
    ]);
    expect(changes[2]!.id).toBe(beta.id);
    expect(changes[0]!.diff).toContain('-  "mapResolution": 150,\n+  "mapResolution": 600,\n');
    // Nothing was written by any of it.
    expect(names(await templates())).toEqual(['Alpha', 'Beta']);
    expect((await templates()).find((template) => template.name === 'Alpha')!.mapResolution).toBe(150);
  });

  it("above each template's diff, what changes by element and field, in text, Markdown and JSON: only a map's height, and the statistics", async () => {
    const { run, create } = await account();
    const costs = entryWhere('replanting', (entry) => entry.key === 'replanting_cost_estimate');
    const body = (height: number, statistics: string[]) =>
      bodyFor('replanting', costs, {
        name: 'Lot 7 replanting',
        selectedStatistics: statistics,
        layouts: { landscape: { elements: [{ type: 'title', x: 0.05, y: 0.02, width: 0.9, height: 0.1 }, { type: 'map', x: 0.05, y: 0.15, width: 0.9, height }] } },
      });
    await create(body(0.8, ['replantingAreaHa']));
    const dir = tempDir();
    writeJson(join(dir, 'lot-7.json'), body(0.75, ['replantPlantsNeeded']));
    const text = await run(['templates', 'diff', dir]);
    expect(text.code, text.stderr).toBe(10);
    expect(text.stdout).toMatch(/^~ selectedStatistics: − replantingAreaHa, \+ replantPlantsNeeded\n~ layouts\.landscape map: height 0\.8 → 0\.75\n--- service\/\S+ "Lot 7 replanting"\n\+\+\+ \S+lot-7\.json\n@@ /);
    const markdown = await run(['templates', 'diff', dir, '--format', 'markdown']);
    expect(markdown.stdout).toContain(': 2 changes</summary>\n\n- selectedStatistics&#58; − replantingAreaHa, &#43; replantPlantsNeeded\n- layouts.landscape map&#58; height 0.8 → 0.75\n\n```diff\n');
    const json = await run(['templates', 'diff', dir, '--json']);
    expect((JSON.parse(json.stdout) as { fields: string[] }[])[0]!.fields).toEqual(['selectedStatistics: − replantingAreaHa, + replantPlantsNeeded', 'layouts.landscape map: height 0.8 → 0.75']);
    const terminal = await run(['templates', 'diff', dir], { tty: { stdout: true } });
    expect(terminal.stdout).toContain('\u001b[33m~ layouts.landscape map: height 0.8 → 0.75\u001b[39m');
  });

  it('fills in the catalog defaults before comparing: a short file equal to what the service stores is no difference', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Short' }));
    const dir = tempDir();
    writeJson(join(dir, 'short.json'), generalBody({ name: 'Short' }));
    const result = await run(['templates', 'diff', dir]);
    expect(result.code, result.stdout).toBe(0);
  });

  it('colours the diff only on a terminal that allows it', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Painted' }));
    const dir = tempDir();
    writeJson(join(dir, 'painted.json'), generalBody({ name: 'Painted', mapResolution: 600 }));
    const terminal = await run(['templates', 'diff', dir], { tty: { stdout: true } });
    expect(terminal.code).toBe(10);
    expect(terminal.stdout).toMatch(ANSI);
    // Red, from chalk's escape to its reset.
    expect(terminal.stdout).toContain('\u001b[31m-  "mapResolution": 150,\u001b[39m');
    const noColour = await run(['templates', 'diff', dir], { tty: { stdout: true }, env: { NO_COLOR: '1' } });
    expect(noColour.stdout).not.toMatch(ANSI);
    const piped = await run(['templates', 'diff', dir]);
    expect(piped.stdout).not.toMatch(ANSI);
    expect(piped.stdout).toContain('+  "mapResolution": 600,');
  });

  it('reports every file that is not JSON or not a valid template in one run (exit 1); invalid files are never differences', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Valid' }));
    const dir = tempDir();
    // A real difference beside the broken files: it must not turn the verdict into "changes" (1).
    writeJson(join(dir, 'valid.json'), generalBody({ name: 'Valid', mapResolution: 600 }));
    writeJson(join(dir, 'catalog.json'), generalBody({ name: 'Catalog', reportType: 'stand_cuont' }));
    writeJson(join(dir, 'schema.json'), generalBody({ name: 'Schema', mapResolution: '300' }));
    writeFileSync(join(dir, 'comma.json'), '{ "name": "Comma", }');
    writeFileSync(join(dir, 'prose.json'), 'not json at all');
    writeFileSync(join(dir, 'empty.json'), '');
    writeFileSync(join(dir, 'blank.json'), '\n  \n');
    const invalid = await run(['templates', 'diff', dir]);
    expect(invalid.code, invalid.stderr).toBe(1);
    expect(invalid.stdout).not.toMatch(/^(---|\+\+\+) /m);
    const validate = await run(['templates', 'validate', ...['blank', 'catalog', 'comma', 'empty', 'prose', 'schema'].map((name) => join(dir, `${name}.json`))]);
    // The very lines `validate` prints for those files, in one run.
    expect(invalid.stdout).toBe(validate.stdout);
    expect(invalid.stdout).toMatch(/catalog\.json: invalid: 1 issue\n {2}reportType: /);
    expect(invalid.stdout).toMatch(/comma\.json: invalid: not valid JSON: line 1, column \d+: property name expected/);
    expect(invalid.stdout).toMatch(/prose\.json: invalid: not valid JSON/);
    // Not "line 1, column 1": there is nothing to look for.
    expect(invalid.stdout).toMatch(/empty\.json: invalid: an empty file\n/);
    expect(invalid.stdout).toMatch(/blank\.json: invalid: an empty file \(white space only\)\n/);
    expect(invalid.stdout).toMatch(/schema\.json: invalid: 1 issue\n {2}mapResolution: /);
    const json = await run(['templates', 'diff', dir, '--json']);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'VALIDATION_FAILED', exitCode: 1 });

    for (const name of ['blank', 'catalog', 'schema', 'comma', 'empty', 'prose']) rmSync(join(dir, `${name}.json`));
    writeJson(join(dir, 'bad.json'), generalBody({ name: 'Valid' }));
    const twice = await run(['templates', 'diff', dir]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/two files hold the same template name/);
    expect(twice.stderr).toMatch(/valid\.json: holds the name "Valid", as .*bad\.json does/);

    const missing = await run(['templates', 'diff', join(dir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the folder .*nowhere: no such file\n/);
  });

  it('stops (exit 2, naming each) at a *.json entry that is not a readable file: a dangling link, a folder, a FIFO; a link to a file is read', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Linked' }));
    const dir = tempDir();
    const elsewhere = tempDir();
    writeJson(join(elsewhere, 'shared.json'), generalBody({ name: 'Linked' }));
    symlinkSync(join(elsewhere, 'shared.json'), join(dir, 'linked.json'));
    const followed = await run(['templates', 'diff', dir]);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stderr).toContain('0 to create, 0 to replace, 0 to delete, 1 unchanged');

    symlinkSync(join(elsewhere, 'not-checked-out.json'), join(dir, 'dangling.json'));
    mkdirSync(join(dir, 'folder.json'));
    expect(spawnSync('mkfifo', [join(dir, 'pipe.json')]).status).toBe(0);
    // A FIFO nobody writes to: opening it the usual way would wait for ever.
    const stopped = await run(['templates', 'diff', dir, '--prune']);
    expect(stopped.code).toBe(2);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr).toContain('3 entries of');
    expect(stopped.stderr).toContain(`${join(dir, 'dangling.json')}: is a symbolic link to nothing`);
    expect(stopped.stderr).toContain(`${join(dir, 'folder.json')}: is a folder, not a file`);
    expect(stopped.stderr).toContain(`${join(dir, 'pipe.json')}: is not a regular file`);
    expect(stopped.stderr).not.toMatch(/to delete/);
  });

  it('refuses a listed template whose id is not the service\'s shape (exit 1) before planning, and prints no raw escape', async () => {
    const { run, create } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'mine.json'), generalBody({ name: 'Mine' }));
    // The service refuses such ids; a hostile or broken one may send them.
    const listed = { ...(await create(generalBody({ name: 'Mine', mapResolution: 999 }))), id: 'abc\u001b]0;PWNED\u0007\u001b[2J' };
    const agent = mockAgent();
    const origin = agent.get(suite.server.url);
    // Only the list is hostile; the catalogs come from the real service.
    agent.enableNetConnect(new URL(suite.server.url).host);
    origin.intercept({ path: (path) => path.startsWith('/api/v2/templates?') }).reply(200, { total: 1, page: 1, limit: 100, data: [listed] }, { headers: { 'content-type': 'application/json' } });
    const result = await run(['templates', 'diff', dir, '--prune'], { dispatcher: agent });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(rawEscapes(result.stderr)).toEqual([]);
    expect(result.stderr).toContain("an id that is not one of its ids");
    expect(result.stderr).toContain('abc\\x1b]0;PWNED\\x07\\x1b[2J');
  });

  it('escapes a file name wherever it prints one: the diff header and the summary', async () => {
    const { run } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'new\u001b]0;PWNED\u0007.json'), generalBody({ name: 'Hostile file' }));
    const result = await run(['templates', 'diff', dir]);
    expect(result.code, result.stderr).toBe(10);
    expect(rawEscapes(result.stdout + result.stderr)).toEqual([]);
    expect(result.stdout).toContain(`+++ ${join(dir, 'new\\x1b]0;PWNED\\x07.json')} (new: "Hostile file")`);
  });

  it('--out saves the plan it printed (exit 10 too): versioned, keys sorted, the same bytes on a rerun, for its service, account and folder', async () => {
    const { run, create, key } = await account();
    const alpha = await create(generalBody({ name: 'Alpha' }));
    const beta = await create(generalBody({ name: 'Beta' }));
    const same = await create(generalBody({ name: 'Same' }));
    const root = tempDir();
    const dir = join(root, 'templates');
    mkdirSync(dir);
    writeJson(join(dir, 'alpha.json'), generalBody({ name: 'Alpha', paperSize: 'a4' }));
    writeJson(join(dir, 'gamma.json'), generalBody({ name: 'Gamma' }));
    writeJson(join(dir, 'same.json'), generalBody({ name: 'Same' }));
    const out = join(root, 'plans', 'plan.json');
    const first = await run(['templates', 'diff', dir, '--prune', '--out', out]);
    expect(first.code, first.stderr).toBe(10);
    const text = readFileSync(out, 'utf8');
    const plan = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(plan)).toEqual(['account', 'baseUrl', 'changes', 'dir', 'files', 'planVersion', 'prune', 'texts', 'unchanged']);
    // The folder relative to the plan file; the service; the account by a fingerprint of the key, never the key.
    expect(plan).toMatchObject({ planVersion: 2, dir: '../templates', prune: true, baseUrl: suite.server.url });
    expect(plan.account).toMatch(/^[0-9a-f]{64}$/);
    expect(text).not.toContain(key.apiKey);
    const sha = (content: string) => createHash('sha256').update(content).digest('hex');
    const fileText = (name: string) => readFileSync(join(dir, name), 'utf8');
    expect((plan.changes as { action: string; name: string; id?: string; file?: string }[]).map(({ action, name, id, file }) => [action, name, id, file])).toEqual([
      ['delete', 'Beta', beta.id, undefined],
      ['replace', 'Alpha', alpha.id, 'alpha.json'],
      ['create', 'Gamma', undefined, 'gamma.json'],
    ]);
    expect(plan.files).toEqual({ 'alpha.json': sha(fileText('alpha.json')), 'gamma.json': sha(fileText('gamma.json')), 'same.json': sha(fileText('same.json')) });
    expect(plan.unchanged).toEqual([{ name: 'Same', id: same.id, file: 'same.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // The texts each change goes from and to, by their sha256: what show-plan shows.
    const texts = plan.texts as Record<string, string>;
    for (const [hash, kept] of Object.entries(texts)) expect(sha(kept)).toBe(hash);
    const replace = (plan.changes as Record<string, string>[])[1]!;
    expect(texts[replace.afterSha256!]).toContain('"paperSize": "a4"');
    expect(texts[replace.serviceSha256!]).toContain('"paperSize": "letter"');
    expect(Object.keys(texts)).toHaveLength(4);
    expect(first.stderr).toContain(`plan saved to ${out}`);
    const again = await run(['templates', 'diff', dir, '--prune', '--out', out]);
    expect(again.code).toBe(10);
    expect(readFileSync(out, 'utf8')).toBe(text);

    const inside = await run(['templates', 'diff', dir, '--out', join(dir, 'plan.json')]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/the next run would read the plan as a template/);
    expect(() => readFileSync(join(dir, 'plan.json'))).toThrow(/ENOENT/);
  });

  it('--out that cannot be written fails the run (exit 1) and prints no plan', async () => {
    const { run } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'new.json'), generalBody({ name: 'New' }));
    const blocked = join(tempDir(), 'a-file');
    writeFileSync(blocked, '');
    const result = await run(['templates', 'diff', dir, '--out', join(blocked, 'plan.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--out: cannot make the folder of \S+a-file\/plan\.json: not a directory/);
  });
});

// A few processes each: seconds alone, more on a loaded machine.
describe('through the built binary', { timeout: 60_000 }, () => {
  it('diff exits 0, 10 and 2, each a code of its own; its --json failure line says why', async () => {
    const { env, create } = await account();
    await create(generalBody({ name: 'Binary' }));
    const dir = tempDir();
    writeJson(join(dir, 'binary.json'), generalBody({ name: 'Binary' }));
    const same = await runCli(['templates', 'diff', dir], { env });
    expect(same.code, same.stderr).toBe(0);

    writeJson(join(dir, 'binary.json'), generalBody({ name: 'Binary', paperSize: 'legal' }));
    const differs = await runCli(['templates', 'diff', dir, '--json'], { env });
    expect(differs.code).toBe(10);
    expect(JSON.parse(differs.stdout)).toEqual([expect.objectContaining({ action: 'replace', name: 'Binary' })]);
    expect(JSON.parse(differs.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'DIFFERENCES', exitCode: 10 });

    const usage = await runCli(['templates', 'diff'], { env });
    expect(usage.code).toBe(2);
    const empty = await runCli(['templates', 'diff', tempDir()], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no template files \(\*\.json\) in /);
  });
});

describe('templates diff on the largest templates', { timeout: 60_000 }, () => {
  it('a 256 KiB template with every value changed is diffed in a small heap and little memory', async () => {
    const { env, create } = await account();
    await create(colourStopsBody(0));
    const dir = tempDir();
    writeFileSync(join(dir, 'many-stops.json'), colourStopsTemplate(1));
    // The child's peak memory, written as it exits. The old diff kept a frontier (typed
    // arrays, outside the V8 heap) per step: gigabytes here, which a heap limit alone misses.
    // Alone the child peaks near 100 MiB; in the full suite on two busy cores its collector
    // falls behind and it has reached 216 MiB, so the bound leaves room for that.
    const peak = join(dir, 'peak-rss');
    const preload = join(dir, 'peak-rss.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(peak)}, String(process.resourceUsage().maxRSS)));`);
    const result = await runCli(['templates', 'diff', dir], { env: { ...env, NODE_OPTIONS: `--max-old-space-size=48 --require ${preload}` } });
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
    expect(result.stdout.match(/^@@/gm)).toHaveLength(1);
    expect(result.stdout).toContain('-        "value": 6799,\n');
    expect(result.stdout).toContain('+        "value": 6799.5,\n');
    expect(Number(readFileSync(peak, 'utf8')) / 1024).toBeLessThan(400);
  });
});

describe('templates diff --format markdown and --previews', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDiff(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'diff', 'templates/', '--format', 'markdown', '--previews', 'out/'], { options: { format: 'markdown', previews: 'out/' }, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--format', 'text'], { options: { format: 'text' }, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--format', 'html'], { usage: /Valid: text, markdown/ }],
      // Shortened as people shorten it: its first letters, or letters of it in order.
      [['templates', 'diff', 'templates/', '--format', 'md'], { usage: /did you mean markdown\? Valid: text, markdown/ }],
      [['templates', 'diff', 'templates/', '--format', 'mark'], { usage: /did you mean markdown\?/ }],
      [['templates', 'diff', 'templates/', '--format', 'tx'], { usage: /did you mean text\?/ }],
    ],
  );

  it('prints the plan as Markdown for a pull-request comment; --json with it is a usage error', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Alpha' }));
    await create(generalBody({ name: 'Same' }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    writeJson(join(dir, 'alpha.json'), { ...readJson(join(dir, 'alpha.json')), mapResolution: 600 });
    writeJson(join(dir, 'gamma.json'), generalBody({ name: 'Gamma <b>@team</b>' }));

    const result = await run(['templates', 'diff', dir, '--format', 'markdown']);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout.startsWith('<!-- reportctl templates plan -->\n### Template plan\n\n**1 to create, 1 to replace, 0 to delete, 1 unchanged**\n')).toBe(true);
    expect(result.stdout).toMatch(
      /\n<details>\n<summary>replace <b>Alpha<\/b> <code>[\w-]+<\/code> from <code>\S+alpha\.json<\/code>: 1 change<\/summary>\n\n- mapResolution&#58; 150 → 600\n\n```diff\n@@ -\d+,7 \+\d+,7 @@\n(?: .*\n){3}- {2}"mapResolution": 150,\n\+ {2}"mapResolution": 600,\n(?: .*\n){3}```\n\n<\/details>\n/,
    );
    expect(result.stdout).toContain('<summary>create <b>Gamma &#60;b&#62;&#64;team&#60;/b&#62;</b> from <code>');
    expect(result.stdout.match(/<details>/g)).toHaveLength(2);
    expect(result.stderr).toContain('1 to create, 1 to replace, 0 to delete, 1 unchanged');

    const both = await run(['templates', 'diff', dir, '--format', 'markdown', '--json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --json or --format markdown, not both/);
  });

  it('--previews writes a before and an after of each layout that changes, and an index.html showing them', async () => {
    const { run, create } = await account();
    const title = { type: 'title', x: 0.05, y: 0.05, width: 0.9, height: 0.1 };
    const map = { type: 'map', x: 0.05, y: 0.2, width: 0.9, height: 0.7 };
    await create(generalBody({ name: 'Moved', layouts: { portrait: { elements: [title, map] } } }));
    await create(generalBody({ name: 'Resolution', layouts: { portrait: { elements: [title, map] } } }));
    await create(generalBody({ name: 'Counted', selectedStatistics: ['totalPlants'], layouts: { portrait: { elements: [title, map] } } }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    // A narrower map is a new picture; a new map resolution is not; a new statistic is, said below the page.
    writeJson(join(dir, 'moved.json'), { ...readJson(join(dir, 'moved.json')), layouts: { portrait: { elements: [title, { ...map, width: 0.5 }] } } });
    writeJson(join(dir, 'resolution.json'), { ...readJson(join(dir, 'resolution.json')), mapResolution: 600 });
    writeJson(join(dir, 'counted.json'), { ...readJson(join(dir, 'counted.json')), selectedStatistics: ['plantsPerHectare'] });
    writeJson(join(dir, 'new.json'), generalBody({ name: 'New <script>', layouts: { landscape: { elements: [title] } } }));

    const out = join(tempDir(), 'previews');
    // Pictures are for anyone to read and no one else to change, whatever the umask.
    const umask = process.umask(0o000);
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(['templates', 'diff', dir, '--previews', out]);
    } finally {
      process.umask(umask);
    }
    expect(result.code, result.stderr).toBe(10);
    expect(readdirSync(out).sort()).toEqual(['counted.portrait.after.svg', 'counted.portrait.before.svg', 'index.html', 'moved.portrait.after.svg', 'moved.portrait.before.svg', 'new-script.landscape.after.svg']);
    expect(result.stderr).toContain(`wrote 5 pictures and ${join(out, 'index.html')}`);
    expect(statSync(out).mode & 0o777).toBe(0o755);
    for (const file of readdirSync(out)) expect(statSync(join(out, file)).mode & 0o777).toBe(0o644);
    const svg = (file: string) => readFileSync(join(out, file), 'utf8');
    expect(svg('moved.portrait.before.svg')).toMatch(/^<svg /);
    expect(svg('moved.portrait.before.svg')).not.toBe(svg('moved.portrait.after.svg'));
    expect(svg('new-script.landscape.after.svg')).toContain('data-orientation="landscape"');
    // The map changed: outlined in both pictures, and the title, unchanged, in neither.
    const outlines = (file: string) => svg(file).match(/<rect class="changed"/g)?.length ?? 0;
    expect([outlines('moved.portrait.before.svg'), outlines('moved.portrait.after.svg')]).toEqual([1, 1]);
    expect(svg('moved.portrait.after.svg')).toMatch(/data-path="layouts\.portrait\.elements\.1">.*?<\/g><rect class="changed"/);
    expect(svg('counted.portrait.after.svg')).toContain('Statistics: − totalPlants, + plantsPerHectare');
    expect(outlines('counted.portrait.after.svg')).toBe(0);

    const index = readFileSync(join(out, 'index.html'), 'utf8');
    for (const file of ['moved.portrait.before.svg', 'moved.portrait.after.svg', 'new-script.landscape.after.svg']) expect(index).toContain(`<img src="${file}"`);
    expect(index).toContain('New &lt;script&gt;');
    expect(index).not.toContain('<script');
    expect(index).not.toContain('Resolution');
    // Nothing from elsewhere: every src and href is one of the pictures beside it.
    expect([...index.matchAll(/(?:src|href)="([^"]*)"/g)].map(([, target]) => target).every((target) => /^[\w.-]+\.svg$/.test(target!))).toBe(true);

    // A folder that cannot be made: exit 2 before anything is printed.
    const blocked = join(tempDir(), 'a-file');
    writeFileSync(blocked, '');
    const refused = await run(['templates', 'diff', dir, '--format', 'markdown', '--previews', join(blocked, 'previews')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--previews: cannot write \S+a-file\/previews: not a directory/);
    expect(refused.stdout).toBe('');
  });
});
