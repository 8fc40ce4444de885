// Across modules: the hooks of .pre-commit-hooks.yaml, run by Debian's pre-commit.
// The hooks of .pre-commit-hooks.yaml, run by Debian's pre-commit as a team's repository would
// run them (`pre-commit try-repo`, and the README's .pre-commit-config.yaml against a clone of
// this repository), with the built reportctl on PATH and no service anywhere.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { generalBody } from './contract/fixtures.js';
import { cleanEnv, reportctlBinDir } from './helpers/cli.js';
import { testWith } from './helpers/programs.js';
import { tempDir } from './helpers/server.js';

const gitIdentity = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000, env: cleanEnv({ ...gitIdentity, ...env }) });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A git repository of its own holding only this checkout's hook definitions, committed. */
function hooksRepository(): string {
  const dir = tempDir('reportctl-hooks-');
  copyFileSync(new URL('../.pre-commit-hooks.yaml', import.meta.url), join(dir, '.pre-commit-hooks.yaml'));
  for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'hooks']]) expect(run('git', args, dir).status).toBe(0);
  return dir;
}

/** A team's repository with `files` written and staged, and how to run one hook on some of them. */
function project(files: Record<string, string>) {
  const dir = tempDir('reportctl-project-');
  expect(run('git', ['init', '-q'], dir).status).toBe(0);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  expect(run('git', ['add', '.'], dir).status).toBe(0);
  const hooks = hooksRepository();
  const env = { PATH: `${reportctlBinDir()}:${process.env.PATH}`, PRE_COMMIT_HOME: tempDir('reportctl-pre-commit-home-'), REPORTCTL_BASE_URL: 'http://127.0.0.1:9' };
  return (hook: string, paths: string[]) => run('pre-commit', ['try-repo', hooks, hook, '--files', ...paths], dir, env);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('.pre-commit-hooks.yaml', () => {
  testWith('pre-commit', 'the templates hook passes a good file, fails a bad one offline, and reads only templates/*.json', () => {
    const hook = project({
      'templates/good.json': json(generalBody({ name: 'Good' })),
      'templates/bad.json': json(generalBody({ name: 'Bad', analysisType: 'countng' })),
      'templates/drafts/unfinished.json': '{',
      'package.json': '{',
    });
    const good = hook('reportctl-templates-validate', ['templates/good.json', 'templates/drafts/unfinished.json', 'package.json']);
    expect(good.status, good.output).toBe(0);
    expect(good.output).toMatch(/reportctl templates validate\.+Passed/);

    const bad = hook('reportctl-templates-validate', ['templates/good.json', 'templates/bad.json']);
    expect(bad.status, bad.output).toBe(1);
    expect(bad.output).toMatch(/reportctl templates validate\.+Failed/);
    expect(bad.output).toContain('templates/bad.json: invalid');
    expect(bad.output).toMatch(/analysisType/);
    expect(bad.output).not.toMatch(/templates\/good\.json: invalid/);
  }, 180_000);

  testWith('pre-commit', 'the templates hook sees the whole folder for names, checks only staged contents, and names every file', () => {
    const dir = tempDir('reportctl-project-');
    const git = (...args: string[]) => expect(run('git', args, dir).status).toBe(0);
    git('init', '-q');
    mkdirSync(join(dir, 'templates'));
    writeFileSync(join(dir, 'templates', 'lot-7.json'), json(generalBody({ name: 'Lot 7' })));
    writeFileSync(join(dir, 'templates', 'draft.json'), json(generalBody({ name: 'Draft', analysisType: 'countng' })));
    git('add', 'templates/lot-7.json');
    git('commit', '-q', '-m', 'lot 7');
    // A second file with the first one's name, staged alone; the unstaged draft is not checked.
    writeFileSync(join(dir, 'templates', 'lot-7-copy.json'), json(generalBody({ name: 'Lot 7', paperSize: 'a4' })));
    git('add', 'templates/lot-7-copy.json');
    const env = { PATH: `${reportctlBinDir()}:${process.env.PATH}`, PRE_COMMIT_HOME: tempDir('reportctl-pre-commit-home-'), REPORTCTL_BASE_URL: 'http://127.0.0.1:9' };
    const clash = run('pre-commit', ['try-repo', hooksRepository(), 'reportctl-templates-validate'], dir, env);
    expect(clash.status, clash.output).toBe(1);
    expect(clash.output).toContain('templates/lot-7-copy.json: invalid: 1 issue');
    expect(clash.output).toContain('name: "Lot 7" is also the name in templates/lot-7.json');
    expect(clash.output).not.toContain('draft.json');

    // One file staged, not JSON: its verdict still names it.
    writeFileSync(join(dir, 'templates', 'lot-7-copy.json'), '{"name": "Lot 7",');
    git('add', 'templates/lot-7-copy.json');
    const broken = run('pre-commit', ['try-repo', hooksRepository(), 'reportctl-templates-validate'], dir, env);
    expect(broken.status, broken.output).toBe(1);
    expect(broken.output).toMatch(/templates\/lot-7-copy\.json: invalid: not valid JSON: line 1, column 18/);
  }, 180_000);

  testWith('pre-commit', 'the formulas hook checks every formula file given, skipping comments', () => {
    const hook = project({
      'formulas/indices.txt': '# vigour\n(NIR - R) / (NIR + R + eps)\n',
      'formulas/broken.txt': '# typo below\nnir / (R + eps)\n',
      'notes.txt': 'nir / R\n',
    });
    const good = hook('reportctl-formula-check', ['formulas/indices.txt', 'notes.txt']);
    expect(good.status, good.output).toBe(0);
    expect(good.output).toMatch(/reportctl formula check\.+Passed/);

    const bad = hook('reportctl-formula-check', ['formulas/indices.txt', 'formulas/broken.txt']);
    expect(bad.status, bad.output).toBe(1);
    expect(bad.output).toMatch(/reportctl formula check\.+Failed/);
    // Each file's verdicts under its name: the error is the second file's.
    expect(bad.output).toMatch(/formulas\/indices\.txt:\nline 2: valid[^]*formulas\/broken\.txt:\nline 2: invalid[^]*did you mean `NIR`/);
  }, 180_000);
});

/** The README's `.pre-commit-config.yaml` block, as text and parsed. */
function readmeConfig() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```yaml\n(# \.pre-commit-config\.yaml\n[\s\S]*?)```/.exec(readme);
  expect(block, 'the README shows a .pre-commit-config.yaml').not.toBeNull();
  const text = block![1]!;
  return { text, config: parse(text) as { repos: Array<{ repo: string; rev: string; hooks: Array<{ id: string }> }> } };
}

/**
 * This repository as a team clones it, with the README's rev as a tag: a `git clone` of the
 * checkout where it is a git work tree, else (CI's copies) a repository of its files.
 */
function reportctlClone(rev: string): string {
  const root = new URL('..', import.meta.url).pathname;
  const dir = tempDir('reportctl-clone-');
  if (run('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], root).status === 0) {
    expect(run('git', ['clone', '-q', root, dir], root).status).toBe(0);
  } else {
    copyFileSync(join(root, '.pre-commit-hooks.yaml'), join(dir, '.pre-commit-hooks.yaml'));
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'reportctl']]) expect(run('git', args, dir).status).toBe(0);
  }
  expect(run('git', ['tag', rev], dir).status).toBe(0);
  return dir;
}

describe("the README's .pre-commit-config.yaml", () => {
  testWith('pre-commit', 'names this repository\'s hooks and the installed version, and runs them on commit as copied', () => {
    const { text, config } = readmeConfig();
    const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const hookIds = (parse(readFileSync(new URL('../.pre-commit-hooks.yaml', import.meta.url), 'utf8')) as Array<{ id: string }>).map(({ id }) => id);
    expect(config.repos).toHaveLength(1);
    const [entry] = config.repos;
    expect(entry!.rev).toBe(`v${version}`);
    expect(entry!.hooks.map(({ id }) => id)).toEqual(hookIds);

    // Copied as it is; only `repo` says where this team's clone is.
    const clone = reportctlClone(entry!.rev);
    const team = tempDir('reportctl-team-');
    const env = { PATH: `${reportctlBinDir()}:${process.env.PATH}`, PRE_COMMIT_HOME: tempDir('reportctl-pre-commit-home-'), REPORTCTL_BASE_URL: 'http://127.0.0.1:9' };
    const git = (...args: string[]) => run('git', args, team, env);
    expect(git('init', '-q').status).toBe(0);
    writeFileSync(join(team, '.pre-commit-config.yaml'), text.replace(`repo: ${entry!.repo}`, `repo: ${clone}`));
    expect(run('pre-commit', ['install'], team, env).status).toBe(0);

    mkdirSync(join(team, 'templates'));
    mkdirSync(join(team, 'formulas'));
    writeFileSync(join(team, 'templates', 'lot-7.json'), json(generalBody({ name: 'Lote 7' })));
    writeFileSync(join(team, 'formulas', 'indices.txt'), '(NIR - R) / (NIR + R + eps)\n');
    git('add', '.');
    const good = git('commit', '-q', '-m', 'templates and formulas');
    expect(good.status, good.output).toBe(0);
    expect(good.output).toMatch(/reportctl templates validate\.+Passed/);
    expect(good.output).toMatch(/reportctl formula check\.+Passed/);

    // A template saved as Latin-1 and a formula with a typo: the commit is refused, each named.
    const latin1 = json(generalBody({ name: 'Lote Peñón' }));
    const at = latin1.indexOf('ñ'); // one byte a character in Latin-1
    writeFileSync(join(team, 'templates', 'lot-8.json'), Buffer.from(latin1, 'latin1'));
    writeFileSync(join(team, 'formulas', 'indices.txt'), 'nir / (R + eps)\n');
    git('add', '.');
    const bad = git('commit', '-q', '-m', 'broken');
    expect(bad.status, bad.output).not.toBe(0);
    expect(bad.output).toMatch(/reportctl templates validate\.+Failed/);
    expect(bad.output).toContain(`invalid: cannot read it: not UTF-8: at byte offset ${at} (line ${latin1.slice(0, at).split('\n').length})`);
    expect(bad.output).toMatch(/reportctl formula check\.+Failed/);
    expect(git('log', '--format=%s').output.trim()).toBe('templates and formulas');
  }, 180_000);
});
