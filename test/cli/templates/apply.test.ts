import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/cli/cmdutil/context.js';
import { registerTemplatesApply } from '../../../src/cli/commands/templates/apply.js';
import { generalBody } from '../../contract/fixtures.js';
import { ANSI, runCli } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, mockAgent, runInProcess, scriptedPrompter, startInProcessService } from '../../helpers/in-process.js';
import { api, tempDir } from '../../helpers/server.js';
import { accountOn, names, rawEscapes, readJson, writeJson } from './support.js';

describe('templates apply flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesApply(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'apply', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'apply', 'templates/', '--prune', '--dry-run'], { options: { prune: true, dryRun: true }, args: ['templates/'] }],
      [['templates', 'apply', 'templates/', '--prune', '-y', '--json'], { options: { prune: true, yes: true, json: true }, args: ['templates/'] }],
      [['templates', 'apply'], { options: {}, args: [undefined] }],
      [['templates', 'apply', '--plan', 'plan.json', '--yes'], { options: { plan: 'plan.json', yes: true }, args: [undefined] }],
      [['templates', 'apply', 'templates/', '--dryrun'], { usage: /unknown option '--dryrun'/ }],
    ],
  );
});

// A folder of template files applied to the service, in process against serve's app; the built
// binary where the process is the point (pipes). The README's CI job: test/readme-workflow.test.ts.
const suite = inProcessServiceForSuite();
const account = (options: { templateLimit?: number } = {}) => accountOn(suite.server, options);

describe('templates apply', () => {
  it('creates and replaces with ids, then a second apply changes nothing and says so', async () => {
    const { run, create, templates } = await account();
    const kept = await create(generalBody({ name: 'Kept' }));
    const edited = await create(generalBody({ name: 'Edited' }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    writeJson(join(dir, 'edited.json'), { ...readJson(join(dir, 'edited.json')), paperSize: 'a4' });
    writeJson(join(dir, 'new.json'), generalBody({ name: 'New one' }));

    const applied = await run(['templates', 'apply', dir, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const after = await templates();
    const created = after.find((template) => template.name === 'New one')!;
    expect(JSON.parse(applied.stdout)).toEqual({
      created: [{ name: 'New one', id: created.id, file: join(dir, 'new.json') }],
      replaced: [{ name: 'Edited', id: edited.id, file: join(dir, 'edited.json') }],
      deleted: [],
      unchanged: [{ name: 'Kept', id: kept.id, file: join(dir, 'kept.json') }],
    });
    expect(after.find((template) => template.id === edited.id)!.paperSize).toBe('a4');
    expect(after.find((template) => template.id === kept.id)!.updatedAt).toBe(kept.updatedAt);
    expect(applied.stderr).toContain('Plan: 1 to create, 1 to replace, 0 to delete, 1 unchanged.');

    const again = await run(['templates', 'apply', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Plan: 0 to create, 0 to replace, 0 to delete, 3 unchanged.\n');
    expect(await templates()).toEqual(after);
  });

  it('prints each change as it is made, with the id, after the plan', async () => {
    const { run, create, templates } = await account();
    const old = await create(generalBody({ name: 'Old' }));
    const dir = tempDir();
    writeJson(join(dir, 'old.json'), generalBody({ name: 'Old', mapResolution: 200 }));
    writeJson(join(dir, 'fresh.json'), generalBody({ name: 'Fresh' }));
    const result = await run(['templates', 'apply', dir]);
    expect(result.code, result.stderr).toBe(0);
    const fresh = (await templates()).find((template) => template.name === 'Fresh')!;
    expect(result.stdout.split('\n')).toEqual([
      'Plan: 1 to create, 1 to replace, 0 to delete, 0 unchanged.',
      `  replace  "Old" ${old.id} from ${join(dir, 'old.json')}`,
      `  create   "Fresh" from ${join(dir, 'fresh.json')}`,
      `replaced  "Old" ${old.id} from ${join(dir, 'old.json')}`,
      `created   "Fresh" ${fresh.id} from ${join(dir, 'fresh.json')}`,
      '',
    ]);
    expect(result.stderr).toContain('applied: 1 created, 1 replaced, 0 deleted, 0 unchanged');
  });

  it('writes nothing when a file is invalid (exit 1), when names clash (exit 2), or with --dry-run', async () => {
    const { run, create, templates } = await account();
    await create(generalBody({ name: 'There' }));
    const before = await templates();
    const dir = tempDir();
    writeJson(join(dir, 'there.json'), generalBody({ name: 'There', mapResolution: 200 }));
    writeJson(join(dir, 'new.json'), generalBody({ name: 'New' }));
    writeJson(join(dir, 'broken.json'), generalBody({ name: 'Broken', mapResolution: '300' }));

    const invalid = await run(['templates', 'apply', dir, '--yes']);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/broken\.json: invalid: 1 issue\n {2}mapResolution: .*\nhint: mapResolution: must be a JSON number, not text; write "mapResolution": 300\n/);
    expect(invalid.stdout).not.toMatch(/Plan:/);
    expect(await templates()).toEqual(before);

    writeJson(join(dir, 'broken.json'), generalBody({ name: 'New' }));
    const clash = await run(['templates', 'apply', dir, '--json']);
    expect(clash.code).toBe(2);
    expect(clash.stdout).toBe('');
    expect(JSON.parse(clash.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'DUPLICATE_NAME', exitCode: 2, issues: [{ path: join(dir, 'new.json') }] });
    expect(await templates()).toEqual(before);

    rmSync(join(dir, 'broken.json'));
    const dryRun = await run(['templates', 'apply', dir, '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toMatch(/^Plan: 1 to create, 1 to replace, 0 to delete, 0 unchanged\.$/m);
    // The plan's lines are the start of a real apply: the last line says this one stopped.
    expect(dryRun.stderr.trim().split('\n').at(-1)).toBe('dry run: nothing was changed on the service');
    expect(await templates()).toEqual(before);

    const nowhere = await run(['templates', 'apply']);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/missing required argument 'dir'/);
  });

  it('reports every broken file in one run, whatever is wrong (syntax, schema, catalog), writes nothing, exit 1; --json gets { …, invalid }', async () => {
    const { run, create, templates } = await account();
    await create(generalBody({ name: 'There' }));
    const before = await templates();
    const dir = tempDir();
    writeJson(join(dir, 'there.json'), generalBody({ name: 'There', mapResolution: 200 }));
    writeFileSync(join(dir, 'comma.json'), '{ "name": "Comma", }');
    writeFileSync(join(dir, 'prose.json'), 'not json');
    writeJson(join(dir, 'schema.json'), generalBody({ name: 'Schema', mapResolution: '300' }));
    writeJson(join(dir, 'catalog.json'), generalBody({ name: 'Catalog', reportType: 'stand_cuont' }));
    const text = await run(['templates', 'apply', dir, '--yes']);
    expect(text.code).toBe(1);
    for (const name of ['catalog', 'comma', 'prose', 'schema']) expect(text.stdout).toMatch(new RegExp(`${name}\\.json: invalid: `));
    expect(text.stdout).not.toMatch(/Plan:/);
    expect(await templates()).toEqual(before);

    const json = await run(['templates', 'apply', dir, '--yes', '--json']);
    expect(json.code).toBe(1);
    const answer = JSON.parse(json.stdout) as { invalid: { file: string; valid: boolean; reason?: string; issues: { path: string }[] }[] };
    expect(answer).toMatchObject({ created: [], replaced: [], deleted: [], unchanged: [] });
    expect(answer.invalid.map(({ file, valid, reason, issues }) => [file, valid, reason?.slice(0, 14), issues.map((issue) => issue.path)])).toEqual([
      [join(dir, 'catalog.json'), false, undefined, ['reportType']],
      [join(dir, 'comma.json'), false, 'not valid JSON', []],
      [join(dir, 'prose.json'), false, 'not valid JSON', []],
      [join(dir, 'schema.json'), false, undefined, ['mapResolution']],
    ]);
    // People still read each verdict, on stderr.
    expect(json.stderr).toMatch(/schema\.json: invalid: 1 issue/);
    expect(await templates()).toEqual(before);
  });

  it('refuses a listed template whose id is not the service\'s shape (exit 1): no PUT or DELETE is sent, nothing written', async () => {
    const { run, create, templates } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'mine.json'), generalBody({ name: 'Mine' }));
    const hostile = { ...(await create(generalBody({ name: 'Mine', mapResolution: 999 }))), id: '../x\u001b]0;PWNED\u0007' };
    const other = { ...(await create(generalBody({ name: 'Other' }))), id: 'ok-id' };
    const before = await templates();
    const agent = mockAgent();
    // Only the list is hostile; everything else reaches the real service.
    agent.enableNetConnect(new URL(suite.server.url).host);
    agent
      .get(suite.server.url)
      .intercept({ path: (path) => path.startsWith('/api/v2/templates?') })
      .reply(200, { total: 2, page: 1, limit: 100, data: [hostile, other] }, { headers: { 'content-type': 'application/json' } });
    const result = await run(['templates', 'apply', dir, '--prune', '--yes', '--verbose'], { dispatcher: agent });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(rawEscapes(result.stderr)).toEqual([]);
    expect(result.stderr).not.toMatch(/^> (PUT|DELETE|POST) /m);
    expect(result.stderr).toContain('../x\\x1b]0;PWNED\\x07');
    expect(await templates()).toEqual(before);
  });

  it('counts the templates in no file it keeps without --prune, one or many', async () => {
    const { run, create } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'mine.json'), generalBody({ name: 'Mine' }));
    await create(generalBody({ name: 'Elsewhere 1' }));
    const one = await run(['templates', 'apply', dir, '--dry-run']);
    expect(one.stderr).toContain('1 template of the account is in no file and kept (--prune deletes it)\n');
    await create(generalBody({ name: 'Elsewhere 2' }));
    const two = await run(['templates', 'apply', dir, '--dry-run']);
    expect(two.stderr).toContain('2 templates of the account are in no file and kept (--prune deletes them)\n');
  });

  it('escapes a file name in the plan and in the line of what was made', async () => {
    const { run } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'new\u001b]0;PWNED\u0007.json'), generalBody({ name: 'From a hostile file' }));
    const result = await run(['templates', 'apply', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(rawEscapes(result.stdout + result.stderr)).toEqual([]);
    expect(result.stdout).toContain(`  create   "From a hostile file" from ${join(dir, 'new\\x1b]0;PWNED\\x07.json')}`);
    expect(result.stdout).toMatch(/^created +"From a hostile file" \S+ from .*new\\x1b\]0;PWNED\\x07\.json$/m);
  });
});

describe('templates apply --plan', () => {
  /**
   * A folder `templates/` and a plan saved beside it: Keep unchanged, Edit to replace, New to
   * create, Gone to delete. Applied with DIR: the test's folders are not in the working folder.
   */
  async function planned() {
    const target = await account();
    const { run, create } = target;
    const keep = await create(generalBody({ name: 'Keep' }));
    const edit = await create(generalBody({ name: 'Edit' }));
    const gone = await create(generalBody({ name: 'Gone' }));
    const root = tempDir();
    const dir = join(root, 'templates');
    mkdirSync(dir);
    writeJson(join(dir, 'keep.json'), generalBody({ name: 'Keep' }));
    writeJson(join(dir, 'edit.json'), generalBody({ name: 'Edit', paperSize: 'a3' }));
    writeJson(join(dir, 'new.json'), generalBody({ name: 'New' }));
    const plan = join(root, 'plan.json');
    const diff = await run(['templates', 'diff', dir, '--prune', '--out', plan]);
    expect(diff.code, diff.stderr).toBe(10);
    const apply = (...args: string[]) => run(['templates', 'apply', dir, '--plan', plan, '--yes', ...args]);
    const stale = async (expected: RegExp) => {
      const before = await target.templates();
      const result = await apply('--json');
      expect(result.code, result.stderr).toBe(12);
      expect(result.stdout).toBe('');
      const error = JSON.parse(result.stderr.trim().split('\n').at(-1)!) as { message: string; issues: { message: string }[] };
      expect(error).toMatchObject({ error: 'STALE_PLAN', exitCode: 12 });
      const said = [error.message, ...error.issues.map((issue) => issue.message)].join('\n');
      expect(said).toMatch(expected);
      expect(await target.templates()).toEqual(before);
      return said;
    };
    return { ...target, keep, edit, gone, root, dir, plan, apply, stale };
  }

  it('carries out exactly the saved plan; applied again, it says the service holds what it makes and writes nothing', async () => {
    const { templates, edit, gone, apply, dir } = await planned();
    const applied = await apply('--json');
    expect(applied.code, applied.stderr).toBe(0);
    const after = await templates();
    const created = after.find((template) => template.name === 'New')!;
    expect(JSON.parse(applied.stdout)).toMatchObject({
      created: [{ name: 'New', id: created.id, file: join(dir, 'new.json') }],
      replaced: [{ name: 'Edit', id: edit.id }],
      deleted: [{ name: 'Gone', id: gone.id, file: null }],
    });
    expect(names(after)).toEqual(['Edit', 'Keep', 'New']);
    const again = await apply();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/plan\.json was already applied: the service holds what it makes\n/);
    expect(again.stderr).not.toMatch(/replaced on the service/);
    expect(again.stdout).toBe('Plan: 0 to create, 0 to replace, 0 to delete, 3 unchanged.\n');
    expect(await templates()).toEqual(after);
  });

  it('after a write that failed, a rerun of the same plan carries out the rest: the changes made are its own', async () => {
    const { apply, templates, key, edit } = await planned();
    await suite.server.admin('faults', 'add', '--route', 'POST /api/v2/templates', '--status', '500', '--count', '1', '--account', key.accountId);
    const failed = await apply();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('apply stopped at create "New": 2 of 3 changes made');
    const rest = await apply();
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain('2 of the 3 changes of');
    expect(rest.stderr).toContain('are already made on the service');
    expect(rest.stdout).toMatch(/^Plan: 1 to create, 0 to replace, 0 to delete, 2 unchanged\.$/m);
    expect(names(await templates())).toEqual(['Edit', 'Keep', 'New']);
    expect((await templates()).find((template) => template.id === edit.id)!.paperSize).toBe('a3');
  });

  it('refuses a plan when a template it touches was replaced on the service', async () => {
    const { stale, edit, key } = await planned();
    const replaced = await api(suite.server, 'PUT', `/api/v2/templates/${edit.id}`, { key: key.apiKey, body: generalBody({ name: 'Edit', mapResolution: 400 }) });
    expect(replaced.status).toBe(200);
    await stale(new RegExp(`template "Edit" ${edit.id} was replaced on the service since the plan`));
  });

  it('refuses a plan when a template it deletes, or leaves unchanged, was deleted on the service', async () => {
    const { stale, keep, key } = await planned();
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${keep.id}`, { key: key.apiKey })).status).toBe(204);
    await stale(new RegExp(`template "Keep" ${keep.id} was deleted on the service since the plan \\(create "Keep"\\)`));
  });

  it('refuses a plan when a template was created with a name the plan creates', async () => {
    const { stale, create } = await planned();
    // Not what the plan makes: the same template would be the plan's result, already there.
    const rival = await create(generalBody({ name: 'New', mapResolution: 999 }));
    await stale(new RegExp(`template "New" ${rival.id} was added on the service since the plan \\(the plan creates that name\\)`));
  });

  it('refuses a --prune plan when any template was added to the service', async () => {
    const { stale, create } = await planned();
    const added = await create(generalBody({ name: 'Unseen' }));
    await stale(new RegExp(`template "Unseen" ${added.id} was added on the service since the plan`));
  });

  it('refuses a plan when a file changed or is new since so that it makes another change; a file gone only drops its change', async () => {
    const { stale, dir, apply, templates } = await planned();
    writeJson(join(dir, 'keep.json'), generalBody({ name: 'Keep', mapResolution: 300 }));
    writeJson(join(dir, 'extra.json'), generalBody({ name: 'Extra' }));
    const said = await stale(/is stale: the folder and the service now make 2 changes it does not hold; nothing was written/);
    expect(said).toContain(`${join('templates', 'keep.json')} changed since the plan (replace "Keep")`);
    expect(said).toContain(`${join('templates', 'extra.json')} is new since the plan (create "Extra")`);

    // Written differently, a file that makes the same template makes no new change.
    writeFileSync(join(dir, 'keep.json'), JSON.stringify(generalBody({ name: 'Keep' })));
    rmSync(join(dir, 'extra.json'));
    rmSync(join(dir, 'new.json'));
    const dropped = await apply();
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(dropped.stderr).toContain(`not made any more: create "New": ${join('templates', 'new.json')} is gone since the plan`);
    expect(names(await templates())).toEqual(['Edit', 'Keep']);
  });

  it('refuses a plan for another folder, another --prune, another version, or what is not a plan (exit 2)', async () => {
    const { run, plan, dir } = await planned();
    const otherDir = await run(['templates', 'apply', tempDir(), '--plan', plan]);
    expect(otherDir.code).toBe(2);
    expect(otherDir.stderr).toMatch(/is a plan for \S*templates, not /);
    // Equal paths are equal, however they are written.
    const sameDir = await run(['templates', 'apply', `${dir}/./`, '--plan', plan, '--dry-run']);
    expect(sameDir.code, sameDir.stderr).toBe(0);
    const unpruned = join(tempDir(), 'unpruned.json');
    expect((await run(['templates', 'diff', dir, '--out', unpruned])).code).toBe(10);
    const otherPrune = await run(['templates', 'apply', dir, '--plan', unpruned, '--prune']);
    expect(otherPrune.code).toBe(2);
    expect(otherPrune.stderr).toMatch(/is a plan made without --prune/);
    const future = join(tempDir(), 'future.json');
    writeJson(future, { ...readJson(plan), planVersion: 3 });
    const versioned = await run(['templates', 'apply', '--plan', future]);
    expect(versioned.code).toBe(2);
    expect(versioned.stderr).toMatch(/a plan of version 3; this reportctl reads version 2/);
    const notPlan = join(tempDir(), 'template.json');
    writeJson(notPlan, generalBody({ name: 'Not a plan' }));
    const wrong = await run(['templates', 'apply', '--plan', notPlan]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not a plan of `templates diff --out`/);
    const missing = await run(['templates', 'apply', '--plan', join(tempDir(), 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--plan: cannot read .*nope\.json: no such file/);
  });

  it('a plan is for the service and the key it was made with: another base URL or key is refused (exit 2), nothing written', async () => {
    const { plan, dir, key, templates } = await planned();
    const before = await templates();
    const elsewhere = await account();
    const otherKey = await elsewhere.run(['templates', 'apply', dir, '--plan', plan, '--yes']);
    expect(otherKey.code).toBe(2);
    expect(otherKey.stderr).toMatch(/plan\.json was made with another key, so maybe for another account/);
    const other = await startInProcessService();
    try {
      const otherService = await runInProcess(['templates', 'apply', dir, '--plan', plan, '--yes'], { env: { REPORTCTL_BASE_URL: other.url, REPORTCTL_API_KEY: key.apiKey } });
      expect(otherService.code).toBe(2);
      expect(otherService.stderr).toContain(`is a plan for ${suite.server.url}, not ${other.url}`);
    } finally {
      await other.stop();
    }
    expect(await templates()).toEqual(before);
    // A plan edited to name no service, or a folder by an absolute path, is not a plan.
    const edited = join(tempDir(), 'edited.json');
    writeJson(edited, { ...readJson(plan), dir: '/elsewhere' });
    const absolute = await runInProcess(['templates', 'apply', '--plan', edited, '--yes'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: key.apiKey } });
    expect(absolute.code).toBe(2);
    expect(absolute.stderr).toMatch(/names its folder as \/elsewhere: a plan's folder is relative to the plan file/);
  });

  it('saves a plan 0600 in a folder made 0700, whatever the umask; refuses to apply a plan other users can change', async () => {
    const { run, dir } = await planned();
    const plan = join(tempDir(), 'made', 'here', 'plan.json');
    const umask = process.umask(0o000);
    try {
      expect((await run(['templates', 'diff', dir, '--prune', '--out', plan])).code).toBe(10);
    } finally {
      process.umask(umask);
    }
    expect(statSync(plan).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(plan)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dirname(plan))).mode & 0o777).toBe(0o700);
    chmodSync(plan, 0o666);
    const refused = await run(['templates', 'apply', dir, '--plan', plan, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--plan: other users can change \S+plan\.json \(mode 666\), and so what apply does; refusing it/);
    chmodSync(plan, 0o600);
    chmodSync(dirname(plan), 0o777);
    const folder = await run(['templates', 'apply', dir, '--plan', plan, '--yes']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/other users can change its folder \(mode 777\)/);
  });
});

// Where a plan finds its folder is a matter of the working folder: the built binary, run in one.
describe('a plan and its folder, from the working folder', { timeout: 60_000 }, () => {
  it('finds the folder relative to the plan file, takes DIR written any way, and refuses a folder outside the working folder', async () => {
    const { env, create } = await account();
    await create(generalBody({ name: 'Placed' }));
    const repo = tempDir();
    mkdirSync(join(repo, 'team', 'templates'), { recursive: true });
    writeJson(join(repo, 'team', 'templates', 'placed.json'), generalBody({ name: 'Placed', paperSize: 'a4' }));
    // Made inside team/, applied from the folder above.
    const made = await runCli(['templates', 'diff', 'templates/', '--out', 'plan.json'], { env, cwd: join(repo, 'team') });
    expect(made.code, made.stderr).toBe(10);
    expect(readJson(join(repo, 'team', 'plan.json')).dir).toBe('templates');
    const above = await runCli(['templates', 'apply', '--plan', 'team/plan.json', '--dry-run'], { env, cwd: repo });
    expect(above.code, above.stderr).toBe(0);
    expect(above.stdout).toContain(`replace  "Placed"`);
    expect(above.stdout).toContain(`from ${join('team', 'templates', 'placed.json')}`);
    const named = await runCli(['templates', 'apply', 'templates', '--plan', 'plan.json', '--dry-run'], { env, cwd: join(repo, 'team') });
    expect(named.code, named.stderr).toBe(0);
    // From inside team/templates the plan's folder is the working folder itself; from a sibling it is outside.
    const inside = await runCli(['templates', 'apply', '--plan', '../plan.json', '--dry-run'], { env, cwd: join(repo, 'team', 'templates') });
    expect(inside.code, inside.stderr).toBe(0);
    // A folder whose name starts with two dots is inside, however it reads.
    mkdirSync(join(repo, '..dots', 'templates'), { recursive: true });
    writeJson(join(repo, '..dots', 'templates', 'placed.json'), generalBody({ name: 'Placed', paperSize: 'a4' }));
    expect((await runCli(['templates', 'diff', '..dots/templates', '--out', 'dots-plan.json'], { env, cwd: repo })).code).toBe(10);
    const dots = await runCli(['templates', 'apply', '--plan', 'dots-plan.json', '--dry-run'], { env, cwd: repo });
    expect(dots.code, dots.stderr).toBe(0);
    mkdirSync(join(repo, 'sibling'));
    const outside = await runCli(['templates', 'apply', '--plan', '../team/plan.json', '--dry-run'], { env, cwd: join(repo, 'sibling') });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(`is a plan for ${join(repo, 'team', 'templates')}, outside the working folder`);
    const given = await runCli(['templates', 'apply', '../team/templates', '--plan', '../team/plan.json', '--dry-run'], { env, cwd: join(repo, 'sibling') });
    expect(given.code, given.stderr).toBe(0);
  });
});

describe('templates apply, one folder', () => {
  it('a rename is a delete and a create: the old template is kept without --prune, deleted with it', async () => {
    const { run, create, templates, key } = await account();
    const old = await create(generalBody({ name: 'Lot 9 (draft)' }));
    const dir = tempDir();
    expect((await run(['templates', 'pull', dir])).code).toBe(0);
    const file = join(dir, 'lot-9-draft.json');
    writeJson(file, { ...readJson(file), name: 'Lot 9' });

    const unpruned = await run(['templates', 'apply', dir]);
    expect(unpruned.code, unpruned.stderr).toBe(0);
    expect(unpruned.stdout).toContain(`  create   "Lot 9" from ${file} (a rename of "Lot 9 (draft)"? it is kept: --prune deletes it)`);
    expect(unpruned.stderr).toContain('1 template of the account is in no file and kept (--prune deletes it)');
    expect(names(await templates())).toEqual(['Lot 9', 'Lot 9 (draft)']);

    // Undo the create so the next run plans the rename whole.
    const lot9 = (await templates()).find((template) => template.name === 'Lot 9')!;
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${lot9.id}`, { key: key.apiKey })).status).toBe(204);

    const refused = await run(['templates', 'apply', dir, '--prune']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to delete template in no file \("Lot 9 \(draft\)"\) without confirmation; nothing was applied/);
    expect(names(await templates())).toEqual(['Lot 9 (draft)']);

    const planned = await run(['templates', 'apply', dir, '--prune', '--dry-run']);
    expect(planned.stdout).toContain('Plan: 1 to create, 0 to replace, 1 to delete, 0 unchanged.');
    expect(planned.stdout).toContain(`  delete   "Lot 9 (draft)" ${old.id} (in no file)`);
    expect(planned.stdout).toContain(`  create   "Lot 9" from ${file} (a rename of "Lot 9 (draft)", deleted above)`);

    const pruned = await run(['templates', 'apply', dir, '--prune', '--yes', '--json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    const now = await templates();
    expect(names(now)).toEqual(['Lot 9']);
    expect(JSON.parse(pruned.stdout)).toMatchObject({
      deleted: [{ name: 'Lot 9 (draft)', id: old.id, file: null }],
      created: [{ name: 'Lot 9', id: now[0]!.id, file }],
    });
  });

  it('on a terminal, asks before deleting; no means nothing applied', async () => {
    const { run, create, templates } = await account();
    await create(generalBody({ name: 'Stays' }));
    await create(generalBody({ name: 'Goes' }));
    const dir = tempDir();
    writeJson(join(dir, 'stays.json'), generalBody({ name: 'Stays', mapResolution: 220 }));
    const tty = { stdin: true, stdout: true };
    const declined = await run(['templates', 'apply', dir, '--prune'], { tty, prompter: scriptedPrompter({ kind: 'confirm', message: 'Delete template in no file ("Goes")?', answer: false }) });
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stderr).toContain('nothing applied');
    expect(names(await templates())).toEqual(['Goes', 'Stays']);
    expect((await templates()).find((template) => template.name === 'Stays')!.mapResolution).toBe(150);

    const accepted = await run(['templates', 'apply', dir, '--prune'], { tty, prompter: scriptedPrompter({ kind: 'confirm', message: 'Delete template in no file ("Goes")?', answer: true }) });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(names(await templates())).toEqual(['Stays']);
  });

  it('stops at a write that fails after the retries (an injected 503), says what was and was not done, and a rerun converges', async () => {
    const { run, create, templates, key } = await account();
    const [a, b, c] = [await create(generalBody({ name: 'A' })), await create(generalBody({ name: 'B' })), await create(generalBody({ name: 'C' }))];
    const dir = tempDir();
    for (const name of ['A', 'B', 'C']) writeJson(join(dir, `${name.toLowerCase()}.json`), generalBody({ name, paperSize: 'a3' }));
    writeJson(join(dir, 'd.json'), generalBody({ name: 'D' }));
    await suite.server.admin('faults', 'add', '--route', `PUT /api/v2/templates/${b.id}`, '--status', '503', '--count', '1', '--account', key.accountId);

    const failed = await run(['templates', 'apply', dir, '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({
      created: [],
      replaced: [{ name: 'A', id: a.id, file: join(dir, 'a.json') }],
      deleted: [],
      unchanged: [],
      notDone: [
        { action: 'replace', name: 'B', id: b.id, file: join(dir, 'b.json') },
        { action: 'replace', name: 'C', id: c.id, file: join(dir, 'c.json') },
        { action: 'create', name: 'D', id: null, file: join(dir, 'd.json') },
      ],
    });
    expect(failed.stderr).toContain('apply stopped at replace "B": 1 of 4 changes made (0 created, 1 replaced, 0 deleted)');
    expect(failed.stderr).toContain(`  not done: create "D" from ${join(dir, 'd.json')}`);
    expect(JSON.parse(failed.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'SERVICE_UNAVAILABLE', status: 503, exitCode: 1 });
    const between = await templates();
    expect(between.map((template) => [template.name, template.paperSize]).sort()).toEqual([
      ['A', 'a3'],
      ['B', 'letter'],
      ['C', 'letter'],
    ]);

    const rerun = await run(['templates', 'apply', dir]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/^Plan: 1 to create, 2 to replace, 0 to delete, 1 unchanged\.$/m);
    const third = await run(['templates', 'apply', dir]);
    expect(third.stdout).toBe('Plan: 0 to create, 0 to replace, 0 to delete, 4 unchanged.\n');
    expect((await templates()).map((template) => [template.name, template.paperSize]).sort()).toEqual([
      ['A', 'a3'],
      ['B', 'a3'],
      ['C', 'a3'],
      ['D', 'letter'],
    ]);
  });
});


describe('templates apply at the plan limit', () => {
  it('stops at the 403 of the template limit with exit 1, the rest listed as not done', async () => {
    const { run, templates } = await account({ templateLimit: 1 });
    const dir = tempDir();
    writeJson(join(dir, 'first.json'), generalBody({ name: 'First' }));
    writeJson(join(dir, 'second.json'), generalBody({ name: 'Second' }));
    const result = await run(['templates', 'apply', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^created +"First" \S+ from /m);
    expect(result.stderr).toContain(`  not done: create "Second" from ${join(dir, 'second.json')}`);
    expect(result.stderr).toMatch(/reportctl: 403 PLAN_LIMIT_EXCEEDED/);
    expect(names(await templates())).toEqual(['First']);
  });
});

describe('templates apply at the service write limit', () => {
  it('paces 100 creations at 30 writes a minute: it waits the windows out and meets no 429', async () => {
    // One fake clock for the service's rate limits and the CLI's waits: minutes pass at once.
    let now = Date.parse('2026-03-01T08:00:00.000Z');
    const waits: number[] = [];
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    };
    const accessLog: string[] = [];
    const limited = await startInProcessService({ readsPerMinute: 120, writesPerMinute: 30, now: () => now, accessLog: (line) => accessLog.push(line) });
    try {
      const key = await limited.newAccount({ templateLimit: 200 });
      const dir = tempDir();
      for (let n = 0; n < 100; n++) writeJson(join(dir, `t-${String(n).padStart(3, '0')}.json`), generalBody({ name: `Template ${n}` }));
      const result = await runInProcess(['templates', 'apply', dir, '--json'], { env: { REPORTCTL_BASE_URL: limited.url, REPORTCTL_API_KEY: key.apiKey }, clock });
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { created: unknown[] }).created).toHaveLength(100);
      expect(accessLog.filter((line) => / POST \/api\/v2\/templates 201 /.test(line))).toHaveLength(100);
      expect(accessLog.filter((line) => / 429 /.test(line))).toEqual([]);
      // 30 writes per window: the 31st, 61st and 91st each wait for a window to pass.
      expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(3 * 60_000);
      expect(result.stderr).toMatch(/reportctl: pacing to the rate limit; next request in \d+ s/);
    } finally {
      await limited.stop();
    }
  });
});

// A few processes each: seconds alone, more on a loaded machine.
describe('through the built binary', { timeout: 60_000 }, () => {
  it('apply piped: the plan and progress on stdout without colour; with --json one JSON document on stdout', async () => {
    const { env, templates } = await account();
    const dir = tempDir();
    writeJson(join(dir, 'piped.json'), generalBody({ name: 'Piped' }));
    const json = await runCli(['templates', 'apply', dir, '--json'], { env: { ...env, FORCE_COLOR: undefined } });
    expect(json.code, json.stderr).toBe(0);
    const [created] = await templates();
    expect(JSON.parse(json.stdout)).toEqual({ created: [{ name: 'Piped', id: created!.id, file: join(dir, 'piped.json') }], replaced: [], deleted: [], unchanged: [] });
    expect(json.stderr).toContain('Plan: 1 to create, 0 to replace, 0 to delete, 0 unchanged.');

    writeJson(join(dir, 'piped.json'), generalBody({ name: 'Piped', paperSize: 'a4' }));
    const text = await runCli(['templates', 'apply', dir], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(ANSI);
    expect(text.stdout).toBe(
      `Plan: 0 to create, 1 to replace, 0 to delete, 0 unchanged.\n  replace  "Piped" ${created!.id} from ${join(dir, 'piped.json')}\nreplaced  "Piped" ${created!.id} from ${join(dir, 'piped.json')}\n`,
    );
  });
});

