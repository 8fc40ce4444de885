// `reportctl help reference`: the command tree as Markdown (docs/commands.md) and as man pages.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../../src/cli/program.js';
import { ENVIRONMENT } from '../../../src/cli/cmdutil/environment.js';
import { ExitCode } from '../../../src/cli/cmdutil/errors.js';
import { runInProcess, testDeps } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { BIN, cleanEnv } from '../../helpers/cli.js';

const leafPaths = (): string[] => {
  const program = buildProgram(testDeps().deps, () => {});
  const paths: string[] = [];
  const visit = (command: typeof program.commands[number], path: string) => {
    if ((command as unknown as { _hidden?: boolean })._hidden) return;
    paths.push(path);
    for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`);
  };
  for (const command of program.commands) visit(command, command.name());
  return paths;
};

/** A page as `man` shows it, bold and underline (overstrikes) taken out. */
function man(page: string) {
  const result = spawnSync('man', ['-l', page], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat' } });
  // `X\bX` is bold and `_\bX` underlined: each backspace takes back the character before it.
  const shown: string[] = [];
  for (const char of result.stdout) {
    if (char === '\b') shown.pop();
    else shown.push(char);
  }
  return { ...result, stdout: shown.join('') };
}

describe('help reference', () => {
  it('docs/commands.md is what the command tree generates (npm run completions writes it)', async () => {
    const result = await runInProcess(['help', 'reference']);
    expect(result.code).toBe(0);
    expect(readFileSync(new URL('../../../docs/commands.md', import.meta.url), 'utf8')).toBe(result.stdout);
  });

  it('has a section for every command, with its flags, defaults, choices and examples', async () => {
    const markdown = (await runInProcess(['help', 'reference'])).stdout;
    for (const path of leafPaths()) expect(markdown, path).toContain(`\n## reportctl ${path}\n`);
    const serve = markdown.slice(markdown.indexOf('\n## reportctl serve\n'), markdown.indexOf('\n## reportctl admin\n'));
    expect(serve).toMatch(/\| `--port <port>` \| [^|]+ \| `4747` \|/);
    expect(serve).toContain('```sh\nreportctl serve --demo');
    const check = markdown.slice(markdown.indexOf('\n## reportctl completion\n'));
    expect(check).toMatch(/\| `shell` \| the shell \(one of `bash`, `zsh`, `fish`\) \|/);
    // Global flags, exit codes and the environment, once.
    expect(markdown).toMatch(/\| `--jq <expression>` \|/);
    expect(markdown).toMatch(/\| 130 \| interrupted \(Ctrl-C\) \|/);
    for (const [name] of ENVIRONMENT) expect(markdown).toContain(name.split(', ')[0]);
  });

  it('lists every REPORTCTL_ variable the code reads, but the test and build hooks', () => {
    const hooks = new Set(['REPORTCTL_HEADERS_TIMEOUT_MS', 'REPORTCTL_REQUEST_TIMEOUT_MS', 'REPORTCTL_TEST_MAX_PAGE_COUNT', 'REPORTCTL_KEY']);
    const grep = spawnSync('grep', ['-rhoE', 'REPORTCTL_[A-Z_]+', 'src', 'bin'], { cwd: new URL('../../..', import.meta.url).pathname, encoding: 'utf8' });
    const read = new Set(grep.stdout.split('\n').filter((name) => name !== '' && !hooks.has(name)));
    const listed = new Set(ENVIRONMENT.flatMap(([names]) => names.split(', ')));
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
  });

  it('--man writes one page per command; man renders one with its flags', async () => {
    const dir = tempDir();
    const result = await runInProcess(['help', 'reference', '--man', dir]);
    expect(result.code, result.stderr).toBe(0);
    const pages = readdirSync(dir).sort();
    expect(pages).toContain('reportctl.1');
    for (const path of leafPaths()) expect(pages, path).toContain(`reportctl-${path.replace(/ /g, '-')}.1`);
    const rendered = man(join(dir, 'reportctl-templates-apply.1'));
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stdout).toMatch(/^NAME\n\s+reportctl-templates-apply\s+-\s+Make\s+the\s+service\s+hold/m);
    expect(rendered.stdout).toMatch(/^OPTIONS\n\s+--prune\n/m);
    expect(rendered.stdout).toMatch(/^\s+--dry-run\n/m);
    expect(rendered.stdout).toMatch(/\$ reportctl templates apply templates\/ --dry-run/);
    const root = man(join(dir, 'reportctl.1'));
    expect(root.stdout).toMatch(/^EXIT STATUS\n/m);
    expect(root.stdout).toMatch(/^\s+REPORTCTL_API_KEY\n/m);
    // No warnings from groff: every line is roff it understands.
    expect(root.stderr + rendered.stderr).toBe('');
  });

  it('the build writes them into dist/man, a page per command (the packed manifest lists them as man)', () => {
    expect(readFileSync(new URL('../../../scripts/pack.mjs', import.meta.url), 'utf8')).toMatch(/manifest\.man = readdirSync\(join\(root, 'dist\/man'\)\)/);
    const built = readdirSync(new URL('../../../dist/man/', import.meta.url));
    expect(built).toContain('reportctl-templates-apply.1');
    expect(built.length).toBe(leafPaths().length + 1);
  });

  it('--man writes pages 0644 in a folder made 0755 whatever the umask: no other user can change what man shows', () => {
    const dir = join(tempDir(), 'man', '1');
    // A process of its own: the umask is the process's.
    const result = spawnSync('/bin/sh', ['-c', 'umask 000 && exec "$0" "$1" help reference --man "$2"', process.execPath, BIN, dir], { encoding: 'utf8', env: cleanEnv() });
    expect(result.status, result.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o755);
    const modes = new Set(readdirSync(dir).map((page) => statSync(join(dir, page)).mode & 0o777));
    expect(modes).toEqual(new Set([0o644]));
  });

  it('--man into a path that cannot be a folder: a one-line error, exit 1', async () => {
    const result = await runInProcess(['help', 'reference', '--man', BIN]);
    expect(result.code).toBe(ExitCode.failed);
    expect(result.stderr).toMatch(/^reportctl: --man: cannot create .*reportctl\.js: it already exists\n/);
  });
});
