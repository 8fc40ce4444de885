import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesDiff } from '../../../src/cli/commands/templates/diff.js';
import { generalBody } from '../../contract/fixtures.js';
import { ANSI, runCli } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { accountOn, names, readJson, writeJson } from './support.js';

describe('templates diff flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDiff(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'diff', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'diff', 'templates/', '--prune', '--json'], { options: { prune: true, json: true }, args: ['templates/'] }],
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
  it('exits 0 on a pulled folder, 1 with a unified diff per change, a create and (with --prune) a delete', async () => {
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
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toMatch(/^--- service\/\S+ "Alpha"\n\+\+\+ \S+alpha\.json\n@@ -\d+,7 \+\d+,7 @@\n(?: .*\n){3}- {2}"mapResolution": 150,\n\+ {2}"mapResolution": 600,\n/m);
    expect(changed.stdout).toMatch(/^--- \/dev\/null\n\+\+\+ \S+gamma\.json \(new: "Gamma"\)\n@@ -0,0 \+1,\d+ @@\n\+\{\n\+ {2}"name": "Gamma",$/m);
    // Without --prune a template in no file is not a difference.
    expect(changed.stdout).not.toContain('Beta');
    expect(changed.stderr).toContain('1 to create, 1 to replace, 0 to delete, 0 unchanged');

    const pruned = await run(['templates', 'diff', dir, '--prune', '--json']);
    expect(pruned.code).toBe(1);
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
    expect(terminal.code).toBe(1);
    expect(terminal.stdout).toMatch(ANSI);
    // Red, from chalk's escape to its reset.
    expect(terminal.stdout).toContain('\u001b[31m-  "mapResolution": 150,\u001b[39m');
    const noColour = await run(['templates', 'diff', dir], { tty: { stdout: true }, env: { NO_COLOR: '1' } });
    expect(noColour.stdout).not.toMatch(ANSI);
    const piped = await run(['templates', 'diff', dir]);
    expect(piped.stdout).not.toMatch(ANSI);
    expect(piped.stdout).toContain('+  "mapResolution": 600,');
  });

  it('reports invalid files as templates validate does (exit 1), and exits 2 on unreadable input or duplicate names', async () => {
    const { run, create } = await account();
    await create(generalBody({ name: 'Valid' }));
    const dir = tempDir();
    writeJson(join(dir, 'valid.json'), generalBody({ name: 'Valid' }));
    writeJson(join(dir, 'bad.json'), generalBody({ name: 'Bad', reportType: 'stand_cuont' }));
    const invalid = await run(['templates', 'diff', dir]);
    expect(invalid.code).toBe(1);
    const file = join(dir, 'bad.json');
    const validate = await run(['templates', 'validate', file, join(dir, 'valid.json')]);
    // The very lines `validate` prints for that file.
    expect(invalid.stdout).toBe(validate.stdout.split(`${join(dir, 'valid.json')}: valid\n`).join(''));
    expect(invalid.stdout).toMatch(/^.*bad\.json: invalid: \d+ issues?\n {2}reportType: /m);

    writeFileSync(join(dir, 'bad.json'), '{ "name": "Bad", }');
    const unreadable = await run(['templates', 'diff', dir]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/bad\.json is not valid JSON: line 1, column 18: property name expected/);

    writeJson(join(dir, 'bad.json'), generalBody({ name: 'Valid' }));
    const twice = await run(['templates', 'diff', dir]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/two files hold the same template name/);
    expect(twice.stderr).toMatch(/valid\.json: holds the name "Valid", as .*bad\.json does/);

    const missing = await run(['templates', 'diff', join(dir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the folder .*nowhere: no such file\n/);
  });
});

// A few processes each: seconds alone, more on a loaded machine.
describe('through the built binary', { timeout: 60_000 }, () => {
  it('diff exits 0, 1 and 2 as diff(1) does; its --json failure line says why', async () => {
    const { env, create } = await account();
    await create(generalBody({ name: 'Binary' }));
    const dir = tempDir();
    writeJson(join(dir, 'binary.json'), generalBody({ name: 'Binary' }));
    const same = await runCli(['templates', 'diff', dir], { env });
    expect(same.code, same.stderr).toBe(0);

    writeJson(join(dir, 'binary.json'), generalBody({ name: 'Binary', paperSize: 'legal' }));
    const differs = await runCli(['templates', 'diff', dir, '--json'], { env });
    expect(differs.code).toBe(1);
    expect(JSON.parse(differs.stdout)).toEqual([expect.objectContaining({ action: 'replace', name: 'Binary' })]);
    expect(JSON.parse(differs.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'DIFFERENCES', exitCode: 1 });

    const usage = await runCli(['templates', 'diff'], { env });
    expect(usage.code).toBe(2);
    const empty = await runCli(['templates', 'diff', tempDir()], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no template files \(\*\.json\) in /);
  });
});
