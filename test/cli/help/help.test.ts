// `reportctl help` and every command's --help: a command's help by name; what --help and a mistyped
// command say for every command in the tree; help names only commands that exist, with a guess
// for a mistyped verb in every group (what help says and the exit codes are runCli's, as in the binary).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli as runBinary } from '../../helpers/cli.js';
import { spawnCliInPty } from '../../helpers/pty.js';
import { tempDir } from '../../helpers/server.js';
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts as Command } from '../../../src/cli/cmdutil/typed-commander.js';
import { buildProgram, runCli } from '../../../src/cli/program.js';
import { testDeps } from '../../helpers/test-deps.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';

describe('help', () => {
  it('prints the named command\'s help, aliases too', async () => {
    const named = await runInProcess(['help', 'templates', 'apply']);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe((await runInProcess(['templates', 'apply', '--help'])).stdout);
    expect((await runInProcess(['help', 'templates', 'rm'])).stdout).toBe((await runInProcess(['templates', 'delete', '--help'])).stdout);
  });

  it('alone, the program\'s help', async () => {
    const alone = await runInProcess(['help']);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe((await runInProcess(['--help'])).stdout);
  });

  it('an unknown command: exit 2, naming it', async () => {
    const result = await runInProcess(['help', 'templates', 'aply']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reportctl: no command "templates aply"\nhint: see reportctl templates --help\n/);
  });
});

function leafPaths(command: Command, prefix: string[] = []): string[][] {
  const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  if (visible.length === 0) return [prefix];
  return visible.flatMap((sub) => leafPaths(sub, [...prefix, sub.name()]));
}

const program = buildProgram(testDeps().deps, () => {});
const leaves = leafPaths(program);

describe('help', () => {
  it('covers the whole command tree', () => {
    expect(leaves.length).toBeGreaterThan(30);
  });

  it.each(leaves.map((path) => [path.join(' ')]))('`reportctl %s --help` has a summary and an example', async (path) => {
    const { deps, stdout } = testDeps();
    const code = await runCli([...path.split(' '), '--help'], deps);
    expect(code).toBe(0);
    const text = stdout();
    expect(text).toMatch(/^Usage: reportctl /m);
    // A one-line summary under the usage line.
    expect(text.split('\n')[2]!.trim().length).toBeGreaterThan(10);
    expect(text).toMatch(/Examples?:\n\s+\$ .*reportctl /);
  });

  it('--version and -V print the version (no command is registered for them)', async () => {
    for (const flag of ['--version', '-V']) expect(await runInProcess([flag])).toMatchObject({ code: 0, stdout: '0.0.0-dev\n', stderr: '' });
  });

  it('shows defaults of flags that have them', async () => {
    const { deps, stdout } = testDeps();
    await runCli(['serve', '--help'], deps);
    expect(stdout()).toMatch(/--port <port>.*\(default: 4747\)/);
    expect(stdout()).toMatch(/--reads-per-minute <n>.*\(default: 120\)/);
  });

  it('suggests the closest command or flag for a typo, exit 2', async () => {
    const typo = testDeps();
    expect(await runCli(['templats', 'list'], typo.deps)).toBe(2);
    expect(typo.stderr()).toMatch(/Did you mean templates\?/);
    const flag = testDeps();
    expect(await runCli(['templates', 'list', '--analysis-typ', 'counting'], flag.deps)).toBe(2);
    expect(flag.stderr()).toMatch(/Did you mean --analysis-type\?/);
  });

  it('finds the command after root options and their values, with or without =', async () => {
    // Only the named group is registered: the rest of the tree must not be needed.
    const sub = testDeps();
    expect(await runCli(['--profile', 'formula', '--base-url=http://127.0.0.1:9', 'formula', 'chek', 'NIR'], sub.deps)).toBe(2);
    expect(sub.stderr()).toMatch(/Did you mean check\?/);
    const ok = testDeps();
    expect(await runCli(['--api-key', 'templates', '--json', 'formula', 'check', 'NIR - R'], ok.deps)).toBe(0);
    expect(JSON.parse(ok.stdout())).toMatchObject({ formula: 'NIR - R', valid: true });
    // An option alone, or `--` first: the whole tree, for help and suggestions.
    const help = testDeps();
    expect(await runCli(['--verbose', '--help'], help.deps)).toBe(0);
    for (const group of ['templates', 'queue-runs', 'formula', 'serve', 'admin', 'completion', 'doctor']) expect(help.stdout()).toContain(`  ${group}`);
  });
});

describe('reportctl basics', () => {
  it('prints an overview with no arguments, exit 0', async () => {
    const result = await runInProcess([]);
    expect(result.code).toBe(0);
    for (const group of ['templates', 'formula', 'serve', 'admin']) expect(result.stdout).toContain(group);
  });
});

/** The verbs root help names for each group: `templates   Report templates: list, get, …`. */
function summarisedVerbs(help: string): Map<string, string[]> {
  const commands = help.slice(help.indexOf('Commands:'), help.indexOf('Get started:')).replace(/\n {20,}/g, ' ');
  const groups = new Map<string, string[]>();
  for (const match of commands.matchAll(/^ {2}([a-z-]+) +[^\n]*?: ([a-z-]+(?:, [a-z-]+)*)$/gm)) groups.set(match[1]!, match[2]!.split(', '));
  return groups;
}

describe('help names only commands that exist', () => {
  it('every verb a group summary names runs (its --help answers), for every group', async () => {
    const root = await runInProcess(['--help']);
    const groups = summarisedVerbs(root.stdout);
    expect([...groups.keys()]).toEqual(expect.arrayContaining(['templates', 'queue-runs', 'catalogs', 'config', 'auth', 'formula', 'admin']));
    for (const [group, verbs] of groups) {
      const help = await runInProcess([group, '--help']);
      const listed = [...help.stdout.slice(help.stdout.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+)(?:\|[a-z|-]+)?(?: |$)/gm)].map((match) => match[1]);
      expect(listed, `${group} --help`).toEqual(expect.arrayContaining(verbs));
      expect(verbs.length, group).toBe(listed.filter((verb) => verb !== 'help').length);
    }
  });

  it('a mistyped verb gets a "did you mean", exit 2', async () => {
    const result = await runInProcess(['templates', 'shw', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'shw'[\s\S]*Did you mean show\?/);
  });

  describe('show and view are get', () => {
    const suite = inProcessServiceForSuite();

    it.each([['templates'], ['queue-runs']])('%s show / view / get answer alike', async (group) => {
      const { env } = suite;
      const id = '00000000-0000-4000-8000-000000000000';
      const results = await Promise.all(['get', 'show', 'view'].map((verb) => runInProcess([group, verb, id], { env })));
      for (const result of results) {
        expect(result.code).toBe(4);
        expect(result.stderr).toBe(results[0]!.stderr);
      }
    });
  });
});

describe('the root help of the built binary, from the list kept by the first one', () => {
  // The first `--help` registers the whole tree and keeps the list beside the code caches; the
  // next ones show it without registering a command (src/cli/root-help.ts).
  it('shows exactly what the whole tree shows, with or without a terminal, and without arguments', async () => {
    const cache = tempDir();
    const whole = await runBinary(['--help'], { env: { REPORTCTL_NO_CACHE: '1' } });
    const first = await runBinary(['--help'], { env: { REPORTCTL_CACHE_DIR: cache } });
    const [key] = readdirSync(join(cache, 'code'));
    expect(readdirSync(join(cache, 'code', key!))).toContain('root-help.json');
    for (const args of [['--help'], ['-h'], []]) expect(await runBinary(args, { env: { REPORTCTL_CACHE_DIR: cache } }), args.join(' ')).toEqual(whole);
    expect(first).toEqual(whole);
    // A terminal 50 columns wide wraps the kept list as it wraps the tree's.
    const shown = async (env: Record<string, string>) => {
      const cli = spawnCliInPty(['--help'], { env: { PTY_COLUMNS: '50', ...env } });
      await cli.exited;
      return cli.transcript();
    };
    expect(await shown({ REPORTCTL_CACHE_DIR: cache })).toBe(await shown({ REPORTCTL_NO_CACHE: '1' }));
  });

  it('a kept list that is not one is ignored: the tree is registered again', async () => {
    const cache = tempDir();
    const whole = await runBinary(['--help'], { env: { REPORTCTL_NO_CACHE: '1' } });
    await runBinary(['--help'], { env: { REPORTCTL_CACHE_DIR: cache } });
    const [key] = readdirSync(join(cache, 'code'));
    for (const bad of ['{"not":"a list"}', '[["templates"]]', 'not JSON']) {
      writeFileSync(join(cache, 'code', key!, 'root-help.json'), bad);
      expect(await runBinary(['--help'], { env: { REPORTCTL_CACHE_DIR: cache } })).toEqual(whole);
    }
  });
});
