// The README's GitHub workflow, run as GitHub would run it: its `run:` steps in order, in bash
// with `-eo pipefail`, against a temporary templates repository. What needs GitHub is a stub:
// `gh` (on PATH) keeps the pull request's comments and the artifacts in a JSON file, `npm`
// records the install, and actions/upload-artifact copies its paths into the stub's store.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generalBody } from './contract/fixtures.js';
import { cleanEnv, reportctlBinDir, runCli } from './helpers/cli.js';
import { testWith } from './helpers/programs.js';
import { tempDir } from './helpers/server.js';

interface Step {
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { templates: { env: Record<string, string>; steps: Step[] } };
}

function readmeWorkflow(): Workflow {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```yaml\n(# \.github\/workflows\/templates\.yml\n[\s\S]*?)```/.exec(readme);
  expect(block, 'the README shows .github/workflows/templates.yml').not.toBeNull();
  return parse(block![1]!) as Workflow;
}

/** The first line of `diff --format markdown`, by which the job finds its comment. */
const MARKER = '<!-- reportctl templates plan -->';
const REPOSITORY = 'agro/templates';
const PR_NUMBER = '7';
/** The pull request's head commit, whose run's plan main applies. */
const PR_HEAD = 'feedbeef00000000000000000000000000000000';

/** A stand-in for GitHub's CLI: the comments of one pull request, the plan artifact of one run, and every call. */
const GH_STUB = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const state = JSON.parse(fs.readFileSync(process.env.GH_STUB_STATE, 'utf8'));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const call = { args };
state.calls.push(call);
const save = () => fs.writeFileSync(process.env.GH_STUB_STATE, JSON.stringify(state, null, 2));
const fail = (message) => { save(); process.stderr.write('gh stub: ' + message + '\\n'); process.exit(1); };
if (!process.env.GH_TOKEN) fail('no GH_TOKEN');
const field = option('--field');
if (field) call.body = fs.readFileSync(field.replace(/^body=@/, ''), 'utf8');
const command = args[0];
// The first word that is no flag and no flag's value: the path of api, the verb of run.
const target = args.find((arg, index) => index > 0 && !arg.startsWith('--') && !args[index - 1].startsWith('--'));
if (command === 'api') {
  const comments = 'repos/${REPOSITORY}/issues/${PR_NUMBER}/comments';
  const method = option('--method') ?? (field ? 'POST' : 'GET');
  if (method === 'GET' && target === comments) {
    // What the workflow's --jq picks: the ids of the comments that start with the marker.
    if (!String(option('--jq')).includes('startswith("${MARKER}")')) fail('unexpected --jq ' + option('--jq'));
    for (const comment of state.comments) if (comment.body.startsWith('${MARKER}')) process.stdout.write(comment.id + '\\n');
  } else if (method === 'POST' && target === comments) {
    state.comments.push({ id: 1000 + state.comments.length, body: call.body });
  } else if (method === 'PATCH' && target.startsWith('repos/${REPOSITORY}/issues/comments/')) {
    const comment = state.comments.find((candidate) => String(candidate.id) === target.split('/').pop());
    if (!comment) fail('no comment ' + target);
    comment.body = call.body;
  } else if (method === 'GET' && target === 'repos/${REPOSITORY}/commits/' + process.env.GITHUB_SHA + '/pulls') {
    if (option('--jq') !== '.[0].head.sha') fail('unexpected --jq ' + option('--jq'));
    process.stdout.write('${PR_HEAD}\\n');
  } else fail('unexpected api call ' + args.join(' '));
} else if (command === 'run' && target === 'list') {
  if (option('--commit') !== '${PR_HEAD}' || option('--event') !== 'pull_request' || option('--status') !== 'success') fail('unexpected run list ' + args.join(' '));
  process.stdout.write('4242\\n');
} else if (command === 'run' && target === 'download') {
  if (args[2] !== '4242') fail('no run ' + args[2]);
  fs.cpSync(path.join(process.env.ARTIFACTS, option('--name')), option('--dir'), { recursive: true });
} else fail('unexpected ' + args.join(' '));
save();
`;

/** A team's templates repository, as the README describes it, with the stubs around it. */
function templatesRepository(templates: Record<string, unknown>) {
  const repo = tempDir('reportctl-templates-repo-');
  const stubs = tempDir('reportctl-stubs-');
  const artifacts = tempDir('reportctl-artifacts-');
  const state = join(stubs, 'gh-state.json');
  writeFileSync(state, JSON.stringify({ calls: [], comments: [] }));
  writeFileSync(join(stubs, 'gh'), GH_STUB, { mode: 0o755 });
  writeFileSync(join(stubs, 'npm'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(stubs, 'npm-args')}"\n`, { mode: 0o755 });
  mkdirSync(join(repo, 'templates'));
  for (const [file, body] of Object.entries(templates)) writeFileSync(join(repo, 'templates', file), `${JSON.stringify(body, null, 2)}\n`);
  mkdirSync(join(repo, 'tools'));
  writeFileSync(join(repo, 'tools', 'reportctl.tgz'), 'the packed tarball');
  writeFileSync(join(repo, 'tools', 'reportctl-sqlite-node20.tgz'), 'the Node 20 driver beside it');
  const env = { PATH: `${stubs}:${reportctlBinDir()}:${process.env.PATH}` };
  const sha = spawnSync('sha256sum', ['tools/reportctl.tgz', 'tools/reportctl-sqlite-node20.tgz'], { cwd: repo, encoding: 'utf8' });
  writeFileSync(join(repo, 'tools', 'reportctl.tgz.sha256'), sha.stdout);
  return {
    repo,
    artifacts,
    env,
    ghState: state,
    gh: () => JSON.parse(readFileSync(state, 'utf8')) as { calls: Array<{ args: string[]; body?: string }>; comments: Array<{ id: number; body: string }> },
    npmArgs: () => (existsSync(join(stubs, 'npm-args')) ? readFileSync(join(stubs, 'npm-args'), 'utf8').trim().split('\n') : undefined),
  };
}

/** The CI fixture of the README's recipe: one account, exported, and its key. */
async function addFixture(repo: string): Promise<void> {
  const db = join(tempDir(), 'fixture.db');
  const account = await runCli(['admin', 'accounts', 'create', '--db', db, '--name', 'ci', '--json']);
  expect(account.code, account.stderr).toBe(0);
  writeFileSync(join(repo, 'ci-account.json'), account.stdout);
  const exported = await runCli(['admin', 'export', '--db', db, '--file', join(repo, 'fixtures.json')]);
  expect(exported.code, exported.stderr).toBe(0);
}

interface StepResult {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the job for `event`: the steps whose `if` holds, in order, stopping at the first that fails. */
function runJob(workflow: Workflow, event: 'pull_request' | 'push', where: ReturnType<typeof templatesRepository>): StepResult[] {
  const sha = 'c0ffee0000000000000000000000000000000000';
  const context: Record<string, string> = {
    'github.token': 'ghs_stub',
    'github.event_name': event,
    'github.event.pull_request.number': event === 'pull_request' ? PR_NUMBER : '',
  };
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_whole, name: string) => {
      expect(context, `the test knows \${{ ${name} }}`).toHaveProperty([name]);
      return context[name]!;
    });
  const holds = (condition: string | undefined) => {
    if (condition === undefined) return true;
    const compared = /^github\.event_name == '(\w+)'$/.exec(condition);
    expect(compared, `a condition the test can evaluate: ${condition}`).not.toBeNull();
    return compared![1] === event;
  };
  const githubEnv = join(tempDir(), 'github-env');
  writeFileSync(githubEnv, '');
  const jobEnv = Object.fromEntries(Object.entries(workflow.jobs.templates.env).map(([name, value]) => [name, expand(value)]));
  const results: StepResult[] = [];
  for (const step of workflow.jobs.templates.steps) {
    if (!holds(step.if)) continue;
    const name = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
    if (step.uses?.startsWith('actions/upload-artifact@')) {
      const store = join(where.artifacts, step.with!.name!);
      for (const path of step.with!.path!.split('\n').filter(Boolean)) cpSync(join(where.repo, path), join(store, path), { recursive: true });
      results.push({ name, status: 0, stdout: '', stderr: '' });
      continue;
    }
    // Checkout and Node are what the test already has: the repository is here, node on PATH.
    if (step.uses) continue;
    const added = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const script = join(tempDir(), 'step.sh');
    writeFileSync(script, step.run!);
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: where.repo,
      encoding: 'utf8',
      timeout: 120_000,
      env: cleanEnv({ ...where.env, ...jobEnv, ...added, GITHUB_ENV: githubEnv, GITHUB_REPOSITORY: REPOSITORY, GITHUB_SHA: sha, GITHUB_EVENT_NAME: event, GH_STUB_STATE: where.ghState, ARTIFACTS: where.artifacts }),
    });
    results.push({ name, status: ran.status, stdout: ran.stdout, stderr: ran.stderr });
    if (ran.status !== 0) break;
  }
  return results;
}

const failedStep = (results: StepResult[]) => results.find((result) => result.status !== 0);
const show = (results: StepResult[]) => results.map((result) => `--- ${result.name}: ${result.status}\n${result.stdout}${result.stderr}`).join('\n');

describe("README's GitHub workflow", () => {
  const workflow = readmeWorkflow();

  it('runs on pull requests and on pushes to main, with actions pinned to commits and least permissions', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    for (const step of workflow.jobs.templates.steps.filter((candidate) => candidate.uses)) expect(step.uses).toMatch(/^actions\/[\w-]+@[0-9a-f]{40}$/);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
    const scripts = workflow.jobs.templates.steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).not.toMatch(/npm (install|i) (-g|--global) (?!.*\.\/tools\/reportctl\.tgz)/);
    expect(scripts).toMatch(/serve --import fixtures\.json .*--exec/);
  });

  testWith('shellcheck', 'every run: step passes shellcheck (bash, as GitHub runs it)', () => {
    for (const step of workflow.jobs.templates.steps.filter((candidate) => candidate.run)) {
      const checked = spawnSync('shellcheck', ['--shell=bash', '--format=gcc', '-'], { input: step.run, encoding: 'utf8' });
      expect(checked.stdout, step.name).toBe('');
    }
  });

  // Each job runs serve and the CLI several times: seconds alone, far more on a loaded machine.
  it('on a pull request: checks the tarball, comments the Markdown plan once and updates it, uploads plan and previews; on main: applies that plan', { timeout: 300_000 }, async () => {
    const where = templatesRepository({ 'from-git.json': generalBody({ name: 'From git', paperSize: 'a4' }) });
    await addFixture(where.repo);

    const first = runJob(workflow, 'pull_request', where);
    expect(failedStep(first), show(first)).toBeUndefined();
    expect(where.npmArgs()).toEqual(['install', '--global', '--ignore-scripts', './tools/reportctl.tgz']);
    const plan = readFileSync(join(where.repo, 'plan.md'), 'utf8');
    expect(plan).toMatch(/1 to create, 0 to replace, 0 to delete/);
    expect(plan).toContain('From git');
    expect(plan.startsWith(`${MARKER}\n`)).toBe(true);
    expect(where.gh().comments).toEqual([{ id: 1000, body: plan }]);
    expect(JSON.parse(readFileSync(join(where.artifacts, 'plan', 'plan.json'), 'utf8'))).toHaveProperty('planVersion', 1);
    expect(existsSync(join(where.artifacts, 'plan', 'previews', 'index.html'))).toBe(true);

    // The next push: the same comment, now holding the new plan.
    writeFileSync(join(where.repo, 'templates', 'second.json'), `${JSON.stringify(generalBody({ name: 'Second' }), null, 2)}\n`);
    const second = runJob(workflow, 'pull_request', where);
    expect(failedStep(second), show(second)).toBeUndefined();
    const secondPlan = readFileSync(join(where.repo, 'plan.md'), 'utf8');
    expect(secondPlan).toMatch(/2 to create/);
    expect(where.gh().comments).toEqual([{ id: 1000, body: secondPlan }]);
    expect(where.gh().calls.filter((call) => call.args.includes('PATCH')).map((call) => call.args[3])).toEqual([`repos/${REPOSITORY}/issues/comments/1000`]);

    // Merged: main applies the plan the pull request's run uploaded.
    const main = runJob(workflow, 'push', where);
    expect(failedStep(main), show(main)).toBeUndefined();
    const applied = main.at(-1)!;
    expect(applied.name).toBe('Apply the reviewed plan');
    expect(applied.stdout).toMatch(/created +"From git"/);
    expect(applied.stdout).toMatch(/created +"Second"/);
  });

  it('a template the service would refuse fails the pull-request check (diff exits 1), and nothing is commented', { timeout: 120_000 }, async () => {
    const where = templatesRepository({ 'bad.json': generalBody({ name: 'Bad', analysisType: 'countng' }) });
    await addFixture(where.repo);
    const results = runJob(workflow, 'pull_request', where);
    const failed = failedStep(results);
    expect(failed?.name, show(results)).toMatch(/^Plan/);
    expect(failed!.status).toBe(1);
    // The reasons are in the job's log, not only in plan.md.
    expect(failed!.stdout).toMatch(/bad\.json: invalid[^]*analysisType: valid: counting, replanting, path/);
    expect(failed!.stderr).toMatch(/the command exited with status 1/);
    expect(where.gh().comments).toEqual([]);
  });

  it("a damaged fixtures.json fails the plan step at once, with serve's message", { timeout: 120_000 }, async () => {
    const where = templatesRepository({ 'from-git.json': generalBody({ name: 'From git' }) });
    await addFixture(where.repo);
    writeFileSync(join(where.repo, 'fixtures.json'), '{"format": "reportctl-snapshot",');
    const results = runJob(workflow, 'pull_request', where);
    const failed = failedStep(results);
    expect(failed?.name, show(results)).toMatch(/^Plan/);
    expect(failed!.status).toBe(1);
    expect(failed!.stderr).toContain('fixtures.json is damaged');
    expect(failed!.stderr).not.toContain('running:');
  });

  it('a tarball that does not match its sha256 stops the job before anything is installed', { timeout: 60_000 }, () => {
    const where = templatesRepository({ 'from-git.json': generalBody({ name: 'From git' }) });
    writeFileSync(join(where.repo, 'tools', 'reportctl.tgz'), 'another tarball');
    const results = runJob(workflow, 'pull_request', where);
    expect(failedStep(results)?.name, show(results)).toBe('Install reportctl');
    expect(failedStep(results)!.stdout).toMatch(/FAILED/);
    expect(where.npmArgs()).toBeUndefined();
  });

  it('so does a Node 20 driver tarball that does not match', { timeout: 60_000 }, () => {
    const where = templatesRepository({ 'from-git.json': generalBody({ name: 'From git' }) });
    writeFileSync(join(where.repo, 'tools', 'reportctl-sqlite-node20.tgz'), 'another driver');
    const results = runJob(workflow, 'pull_request', where);
    expect(failedStep(results)?.name, show(results)).toBe('Install reportctl');
    expect(failedStep(results)!.stdout).toMatch(/reportctl-sqlite-node20.tgz: FAILED/);
    expect(where.npmArgs()).toBeUndefined();
  });
});
