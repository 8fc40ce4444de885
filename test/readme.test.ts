// Across modules: the README's commands and recipes, run as written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, reportctlBinDir, runCli, spawnCli, type SpawnedCli } from './helpers/cli.js';
import { testWith } from './helpers/programs.js';
import { tempDir } from './helpers/server.js';

/** The ```sh blocks of one README section, in order. */
function shellBlocks(section: string): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`\n## ${section}\n`);
  expect(start, `README section "${section}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const text = readme.slice(start, end === -1 ? undefined : end);
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** The page of recipes the README sends CI users to. */
const FIXTURE_DOC = 'docs/serve-as-a-fixture.md';

/** Every ```sh block of the README (or of `file`), with the line it starts on. */
function allShellBlocks(file = 'README.md'): Array<{ line: number; script: string }> {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => ({ line: text.slice(0, match.index).split('\n').length + 1, script: match[1]! }));
}

/** Runs README lines in bash, `reportctl` on PATH being the built CLI, stopping at the first failure. */
function runScript(script: string, cwd: string, env: Record<string, string>) {
  return spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: cleanEnv({ ...env, PATH: `${binDir}:${process.env.PATH}` }),
    timeout: 120_000,
  });
}

let binDir: string;
let server: SpawnedCli;
let url: string;
let ownerKey: string;

beforeAll(async () => {
  binDir = reportctlBinDir();
  // The tour's own serve line, made quick for a test: a free port and fast simulated steps.
  const [serveBlock] = shellBlocks('A quick tour');
  const serveArgs = serveBlock!.trim().split(/\s+/).slice(1);
  expect(serveArgs).toEqual(['serve', '--demo', '--simulate', '--db', ':memory:']);
  server = await spawnCli([...serveArgs, '--port', '0', '--step-seconds', '0.3', '--json', '--no-access-log']);
  const first = JSON.parse(server.firstLine) as { url: string; keys: { owner: string } };
  url = first.url;
  ownerKey = first.keys.owner;
});
afterAll(async () => {
  await server?.stop();
});

describe('README', () => {
  it('starts with the two commands: the demo service and the tests', () => {
    const [block] = shellBlocks('Two commands');
    expect(block).toMatch(/^npm ci && npx reportctl serve --demo\b/m);
    expect(block).toMatch(/^npm test\b/m);
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
    // On each Node version, indented inside the function that runs it.
    expect(ci).toMatch(/^\s*npm ci\n\s*npm test$/m);
  });

  it('the curl line works with the printed key', () => {
    const [, curlBlock] = shellBlocks('Two commands');
    const line = curlBlock!.trim().replace('<owner key>', ownerKey).replace('http://127.0.0.1:4747', url);
    const result = runScript(`${line} --fail --silent`, tempDir(), {});
    expect(result.status, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { total: number }).total).toBeGreaterThan(0);
  });

  // About 15 CLI runs in a row: 15 s alone, twice that on a loaded two-core machine.
  it('the quick tour runs by copy-paste against the demo', { timeout: 90_000 }, () => {
    const [, tour] = shellBlocks('A quick tour');
    const script = tour!.replace(/^export REPORTCTL_API_KEY=.*$/m, `export REPORTCTL_API_KEY=${ownerKey}`);
    const result = runScript(script, tempDir(), { REPORTCTL_BASE_URL: url });
    expect(result.status, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Lot 7 — stand count/);
    expect(result.stdout).toMatch(/invalid/);
  });

  it('the formula examples run offline', () => {
    const [block] = shellBlocks('Formulas, offline');
    const dir = tempDir();
    writeFileSync(join(dir, 'formulas.txt'), '(NIR - R) / (NIR + R + eps)\nsqrt(abs(NIR - G))\n');
    const result = runScript(block!, dir, {});
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^0\.77\d+$/m);
  });

  it('the admin examples run against a database file', () => {
    const [block] = shellBlocks('The embedded service');
    const dir = tempDir();
    const db = join(dir, 'admin.db');
    writeFileSync(join(dir, 'fixtures.json'), JSON.stringify({ analyses: [{ lotId: 'lot-9', analysisType: 'path', status: 'completed' }] }));
    writeFileSync(join(dir, 'catalogs.json'), JSON.stringify({ statistics: { counting: ['totalPlants'], replanting: ['gapCount'], path: ['pathLengthM'] } }));
    // Each placeholder gets the value an earlier line printed.
    const script = `
export REPORTCTL_TEST_DB=${JSON.stringify(db)}
reportctl() { command reportctl "$@" --db "$REPORTCTL_TEST_DB"; }
${block!
  .replace(/^(reportctl admin accounts create .*--json).*$/m, 'ACCOUNT_ID=$($1 | node -pe "JSON.parse(require(\'fs\').readFileSync(0)).accountId")')
  .replace(/^(reportctl admin queues create .*)$/m, 'QUEUE_ID=$($1 --json | node -pe "JSON.parse(require(\'fs\').readFileSync(0)).id")')
  .replace(/^(reportctl admin queue-runs enqueue --queue QUEUE_ID) \[--fail-at-step 2\].*$/m, 'RUN_ID=$($1 --json | node -pe "JSON.parse(require(\'fs\').readFileSync(0)).id")')
  .replace(/^(reportctl admin keys create .*)$/m, 'KEY=$($1 --json | node -pe "JSON.parse(require(\'fs\').readFileSync(0)).apiKey")')
  .replace(/rctl_…/g, '"$KEY"')
  .replace(/\b(ACCOUNT_ID|QUEUE_ID|RUN_ID)\b(?!=)/g, (name) => `"$${name}"`)
  .replace(/\s+#.*$/gm, '')}`;
    const result = runScript(script, dir, {});
    expect(result.status, `script:\n${script}\nstderr:\n${result.stderr}`).toBe(0);
  });

  describe('the CI recipes', () => {
    const blocks = allShellBlocks(FIXTURE_DOC).map(({ script }) => script);
    const [makeFixture, execJob, backgroundJob] = blocks.slice(-3);
    let made: string | undefined;
    /** A folder of its own holding the recipe's fixture, made once for both tests. */
    const fixture = (): string => {
      if (made === undefined) {
        made = tempDir();
        const result = runScript(makeFixture!, made, {});
        expect(result.status, result.stderr).toBe(0);
      }
      const dir = tempDir();
      cpSync(made, dir, { recursive: true });
      return dir;
    };

    it('--exec serves the fixture to one command and exits with its status', () => {
      expect(execJob).toMatch(/^reportctl serve --import fixtures.json .*--exec 'reportctl templates list'/m);
      const dir = fixture();
      const passed = runScript(execJob!, dir, {});
      expect(passed.status, `stderr:\n${passed.stderr}`).toBe(0);
      expect(passed.stderr).toMatch(/^reportctl serve listening on http:\/\/127\.0\.0\.1:\d+; running: reportctl templates list$/m);
      // A command that fails fails the job, with its own status.
      const failing = runScript(execJob!.replace("--exec 'reportctl templates list'", "--exec 'reportctl templates get none'"), dir, {});
      expect(failing.status).toBe(4);
    });

    it('the background form starts, runs a command and stops; a service that cannot start ends it with 1', () => {
      expect(backgroundJob).toMatch(/^reportctl serve --import fixtures.json --port 0\b/m);
      const dir = fixture();
      const key = `export REPORTCTL_API_KEY=$(node -pe 'JSON.parse(require("fs").readFileSync("ci-account.json", "utf8")).apiKey')`;
      const result = runScript(`${key}\n${backgroundJob!}\necho "stopped $?"`, dir, {});
      expect(result.status, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/^stopped 0$/m);
      writeFileSync(join(dir, 'fixtures.json'), '{"format": "reportctl-snapshot",');
      const broken = runScript(`${key}\n${backgroundJob!}`, dir, {});
      expect(broken.status).toBe(1);
      expect(broken.stderr).toContain('fixtures.json is damaged');
    });
  });
});

describe('README shell', () => {
  testWith('shellcheck', 'every sh block passes shellcheck (as bash), with no warning', () => {
    // The docs too: docs/commands.md holds every --help example, copied into CI as they are.
    const docs = readdirSync(new URL('../docs/', import.meta.url)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    const blocks = ['README.md', ...docs].flatMap((file) => allShellBlocks(file).map((block) => ({ ...block, file })));
    expect(blocks.length).toBeGreaterThan(10);
    const findings = blocks.flatMap(({ file, line, script }) => {
      const checked = spawnSync('shellcheck', ['--shell=bash', '--format=gcc', '-'], { input: script, encoding: 'utf8' });
      return checked.stdout.split('\n').filter(Boolean).map((finding) => `${file} block at line ${line}: ${finding}`);
    });
    expect(findings).toEqual([]);
  });

  it('the completion lines work in a fresh home: bash loads its script, the fish and zsh folders are made', () => {
    const block = allShellBlocks().find(({ script }) => script.includes('reportctl completion fish'))!.script;
    const home = tempDir();
    const result = runScript(`${block}\ncomplete -p reportctl`, home, { HOME: home });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^complete .*reportctl$/m);
    expect(readFileSync(join(home, '.config/fish/completions/reportctl.fish'), 'utf8')).toContain('complete -c reportctl');
    expect(readFileSync(join(home, '.zfunc/_reportctl'), 'utf8')).toMatch(/^#compdef reportctl/);
  });

  it('--exec runs its command with /bin/sh, as the README, its recipes and serve --help say', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/`serve --exec CMD` serves a fixture to one command \(run in `\/bin\/sh`\)/);
    const recipes = readFileSync(new URL(`../${FIXTURE_DOC}`, import.meta.url), 'utf8');
    expect(recipes).toMatch(/`serve --exec COMMAND` starts the service on a free port, runs the command with `\/bin\/sh`/);
    expect((await runCli(['serve', '--help'])).stdout).toMatch(/--exec <command> +run this command with \/bin\/sh/);
    const ran = await runCli(['serve', '--db', ':memory:', '--no-access-log', '--exec', 'echo "$0"']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('/bin/sh\n');
  });
});
