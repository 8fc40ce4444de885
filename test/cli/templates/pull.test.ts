import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesPull } from '../../../src/cli/commands/templates/pull.js';
import { generalBody, vegetationBody } from '../../contract/fixtures.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, mockAgent } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { accountOn, readJson, writeJson } from './support.js';

describe('templates pull flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPull(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'pull', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'pull', 'out', '--json'], { options: { json: true }, args: ['out'] }],
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

    const result = await run(['templates', 'pull', dir, '--json']);
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
});
