import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesPull } from '../../../src/cli/commands/templates/pull.js';
import { generalBody, vegetationBody } from '../../contract/fixtures.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, mockAgent } from '../../helpers/in-process.js';
import { BIN, cleanEnv } from '../../helpers/cli.js';
import { api, tempDir } from '../../helpers/server.js';
import { accountOn, rawEscapes, readJson, writeJson } from './support.js';

describe('templates pull flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPull(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'pull', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'pull', 'out', '--json'], { options: { json: true }, args: ['out'] }],
      [['templates', 'pull', 'out', '--force'], { options: { force: true }, args: ['out'] }],
      [['templates', 'pull'], { usage: /missing required argument 'dir'/ }],
      [['templates', 'pull', 'out', '--prune'], { usage: /unknown option '--prune'/ }],
    ],
  );
});

// A folder of template files from the service, in process against serve's app.
const suite = inProcessServiceForSuite();
const account = (options: { templateLimit?: number } = {}) => accountOn(suite.server, options);

describe('templates pull', () => {
  // The first test loads the verbs' modules: slow on a loaded machine.
  it('writes one file per template, the body in the contract order, the same bytes on a second pull', { timeout: 60_000 }, async () => {
    const { run, create } = await account();
    const lot7 = await create(generalBody({ name: 'Lot 7 — stand count', mapResolution: 300 }));
    await create(vegetationBody({ name: 'Lot 8 NDVI', indexName: 'NDVI' }));
    const dir = join(tempDir(), 'templates');

    const first = await run(['templates', 'pull', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['lot-7-stand-count.json', 'lot-8-ndvi.json']);
    const text = readFileSync(join(dir, 'lot-7-stand-count.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toMatch(/^\{\n {2}"name": "Lot 7 — stand count",\n {2}"analysisType": "counting",\n/);
    const pulled = JSON.parse(text) as Record<string, unknown>;
    // What POST accepts: no server-owned fields; the rest as the service holds it.
    for (const field of ['id', 'userId', 'createdAt', 'updatedAt']) expect(pulled).not.toHaveProperty(field);
    const { id: _id, userId: _userId, createdAt: _createdAt, updatedAt: _updatedAt, ...body } = lot7;
    expect(pulled).toEqual(body);
    expect(Object.keys(pulled)).toEqual('name analysisType reportType reportTypeId reportCategory selectedStatistics layouts paperSize mapResolution margins'.split(' '));
    expect(Object.keys(readJson(join(dir, 'lot-8-ndvi.json'))).slice(-2)).toEqual(['indexName', 'colorScale']);
    expect(first.stdout).toMatch(/^new +\S+lot-7-stand-count\.json "Lot 7 — stand count"$/m);

    const before = readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'));
    const second = await run(['templates', 'pull', dir]);
    expect(second.code, second.stderr).toBe(0);
    expect(readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'))).toEqual(before);
    expect(second.stdout.match(/^unchanged /gm)).toHaveLength(2);
  });

  it('keeps a template in the file that holds its name, suffixes clashing slugs, and leaves other files alone', async () => {
    const { run, create } = await account();
    const older = await create(generalBody({ name: 'North lot' }));
    const newer = await create(generalBody({ name: 'north-lot' }));
    const kept = await create(generalBody({ name: 'Kept where it is' }));
    const dir = tempDir();
    writeJson(join(dir, 'my-own-name.json'), { ...generalBody({ name: 'Kept where it is' }), mapResolution: 999 });
    writeFileSync(join(dir, 'notes.json'), 'not json at all');
    writeJson(join(dir, 'other.json'), generalBody({ name: 'Not on the service' }));

    // Outside git the edited file is kept; --force overwrites it.
    const refused = await run(['templates', 'pull', dir]);
    expect(refused.code).toBe(11);
    expect(readJson(join(dir, 'my-own-name.json')).mapResolution).toBe(999);
    const result = await run(['templates', 'pull', dir, '--json', '--force']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { name: 'North lot', id: older.id, file: join(dir, 'north-lot.json') },
      { name: 'north-lot', id: newer.id, file: join(dir, 'north-lot-2.json') },
      { name: 'Kept where it is', id: kept.id, file: join(dir, 'my-own-name.json') },
    ]);
    expect(readJson(join(dir, 'my-own-name.json')).mapResolution).toBe(kept.mapResolution);
    expect(readdirSync(dir).sort()).toEqual(['my-own-name.json', 'north-lot-2.json', 'north-lot.json', 'notes.json', 'other.json']);
    expect(readFileSync(join(dir, 'notes.json'), 'utf8')).toBe('not json at all');
    expect(result.stderr).toContain(`left alone, not a template of the account: ${join(dir, 'notes.json')}`);
    expect(result.stderr).toContain(`left alone, not a template of the account: ${join(dir, 'other.json')}`);
  });

  it('writes a hostile name only into a slug inside the folder, and shows it escaped', async () => {
    const { run, create } = await account();
    const parent = tempDir();
    const dir = join(parent, 'templates');
    // The service refuses control characters in names; a hostile one may not.
    const hostile = { ...(await create(generalBody({ name: '../../.bashrc' }))), name: '../../.bashrc \u001b[2J' };
    const agent = mockAgent();
    const origin = agent.get(suite.server.url);
    origin.intercept({ path: (path) => path.startsWith('/api/v2/templates?') }).reply(200, { total: 1, page: 1, limit: 100, data: [hostile] }, { headers: { 'content-type': 'application/json' } });
    const result = await run(['templates', 'pull', dir], { dispatcher: agent });
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(parent)).toEqual(['templates']);
    expect(readdirSync(dir)).toEqual(['bashrc-2j.json']);
    expect(result.stdout).toBe(`new       ${join(dir, 'bashrc-2j.json')} "../../.bashrc \\x1b[2J"\n`);
  });

  it('refuses two templates with one name on the service: exit 2, both listed, nothing written', async () => {
    const { run, create } = await account();
    const one = await create(generalBody({ name: 'Twin' }));
    const two = await create(generalBody({ name: 'Twin' }));
    const dir = join(tempDir(), 'never-made');
    const result = await run(['templates', 'pull', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/two templates with the same name/);
    expect(result.stderr).toContain(one.id);
    expect(result.stderr).toContain(two.id);
    expect(() => readdirSync(dir)).toThrow(/ENOENT/);
  });

  it('never loses a local edit outside git: a file that differs from the service is kept and listed (exit 11) unless --force', async () => {
    const { run, create, key } = await account();
    const edited = await create(generalBody({ name: 'Edited here' }));
    await create(generalBody({ name: 'Fresh' }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    const file = join(dir, 'edited-here.json');
    const local = { ...readJson(file), mapResolution: 777 };
    writeJson(file, local);
    // The service moves on too: only --force may take its copy over the local one.
    await api(suite.server, 'PUT', `/api/v2/templates/${edited.id}`, { key: key.apiKey, body: generalBody({ name: 'Edited here', paperSize: 'a3' }) });
    await create(generalBody({ name: 'Newer' }));
    const result = await run(['templates', 'pull', dir]);
    expect(result.code).toBe(11);
    expect(readJson(file)).toEqual(local);
    expect(result.stdout).toMatch(new RegExp(`^kept +${file} "Edited here"$`, 'm'));
    expect(result.stdout).toMatch(/^new +\S+newer\.json "Newer"$/m);
    expect(result.stderr).toMatch(/edited-here\.json was kept: it differs from the service and the folder is not in a git work tree/);
    expect(result.stderr).toMatch(/--force/);
    const forced = await run(['templates', 'pull', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readJson(file).paperSize).toBe('a3');
    expect(readJson(file).mapResolution).toBe(150);
  });

  it('in a git work tree, overwrites a committed file the service changed, keeps one with uncommitted changes (exit 11) unless --force', async () => {
    const { run, create, key } = await account();
    const committed = await create(generalBody({ name: 'Committed' }));
    const edited = await create(generalBody({ name: 'Edited' }));
    const repo = tempDir();
    const dir = join(repo, 'templates');
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    const git = (...args: string[]) => {
      const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
    };
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'templates');
    const editedFile = join(dir, 'edited.json');
    const local = { ...readJson(editedFile), mapResolution: 777 };
    writeJson(editedFile, local);
    for (const template of [committed, edited]) {
      await api(suite.server, 'PUT', `/api/v2/templates/${template.id}`, { key: key.apiKey, body: generalBody({ name: template.name, paperSize: 'a3' }) });
    }
    const result = await run(['templates', 'pull', dir]);
    expect(result.code).toBe(11);
    expect(readJson(join(dir, 'committed.json')).paperSize).toBe('a3');
    expect(readJson(editedFile)).toEqual(local);
    expect(result.stderr).toMatch(/edited\.json was kept: it has changes git does not hold as committed/);
    // Staged is not committed either.
    git('add', '.');
    expect((await run(['templates', 'pull', dir])).code).toBe(11);
    expect(readJson(editedFile)).toEqual(local);
    const forced = await run(['templates', 'pull', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readJson(editedFile).paperSize).toBe('a3');
  });

  it('stops (exit 2) at a *.json entry that is not a readable file, before writing anything', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Waiting' }));
    const dir = tempDir();
    symlinkSync(join(dir, 'nowhere', 'x.json'), join(dir, 'dangling.json'));
    const result = await run(['templates', 'pull', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'dangling.json')} is a symbolic link to nothing`);
    expect(readdirSync(dir)).toEqual(['dangling.json']);
  });

  it("suffixes slugs that are Windows device names (con, prn, aux, nul, com1-9, lpt1-9, any case)", async () => {
    const { run, create } = await account();
    for (const name of ['CON', 'nul', 'Com1', 'LPT9', 'aux', 'Prn', 'con 2']) await create(generalBody({ name }));
    const dir = tempDir();
    const result = await run(['templates', 'pull', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['aux-template.json', 'com1-template.json', 'con-2.json', 'con-template.json', 'lpt9-template.json', 'nul-template.json', 'prn-template.json']);
  });

  it('escapes file names it prints: the lines of what it wrote and the files it left alone', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Plain' }));
    const dir = tempDir();
    writeJson(join(dir, 'left\u001b]0;PWNED\u0007.json'), generalBody({ name: 'Not on the service' }));
    const result = await run(['templates', 'pull', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(rawEscapes(result.stdout + result.stderr)).toEqual([]);
    expect(result.stderr).toContain(`left alone, not a template of the account: ${join(dir, 'left\\x1b]0;PWNED\\x07.json')}`);
  });
});

// A process whose reader goes away: the point is the real pipe.
describe('through the built binary', { timeout: 60_000 }, () => {
  it('a pull whose stdout is closed writes every file first, leaves no temporary file, and does not exit 0', async () => {
    const { env, create } = await account();
    for (let n = 0; n < 30; n++) await create(generalBody({ name: `Piped ${n}` }));
    const dir = tempDir();
    const status = join(tempDir(), 'status');
    // `| true`: the reader exits at once, so the pull's first line meets a closed pipe.
    const script = `"$NODE" "$BIN" templates pull "$DIR"; echo $? > "$STATUS"`;
    // Not spawnSync: the service runs in this process and must go on answering.
    const shell = spawn('sh', ['-c', `{ ${script}; } | true`], { env: cleanEnv({ ...env, NODE: process.execPath, BIN, DIR: dir, STATUS: status }), stdio: 'ignore' });
    expect(await new Promise((resolve) => shell.on('close', resolve))).toBe(0);
    // 1 when pull saw the closed pipe first, 141 when the pipe's error came first: never 0.
    expect(['1', '141']).toContain(readFileSync(status, 'utf8').trim());
    const files = readdirSync(dir);
    expect(files.filter((file) => file.endsWith('.tmp') || file.startsWith('.'))).toEqual([]);
    expect(files).toHaveLength(30);
    for (const file of files) expect(readJson(join(dir, file)).name).toMatch(/^Piped \d+$/);
  });
});
