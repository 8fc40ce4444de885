// Across modules: the README's GitHub workflow, step by step, with the built binary.
// The README's GitHub workflow, run as GitHub would run it: its jobs and their `run:` steps in
// order, in bash with `-eo pipefail`, in a fresh checkout of a templates repository, against a
// real `serve` (the team's service: its URL a repository variable, its key a secret). What
// needs GitHub is a stub: `gh` (on PATH) keeps the pull requests' comments, which run belongs
// to which commit, and the artifacts; `npm` records the install; the artifact actions copy
// files in and out of the stub's store; an environment's approval is the test's to give.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generalBody } from './contract/fixtures.js';
import { cleanEnv, reportctlBinDir } from './helpers/cli.js';
import { testWith } from './helpers/programs.js';
import { api, closedUrl, serverForSuite, tempDir, type IssuedKey } from './helpers/server.js';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Job {
  if?: string;
  needs?: string;
  environment?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

function readmeWorkflow(): Workflow {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```yaml\n(# \.github\/workflows\/templates\.yml\n[\s\S]*?)```/.exec(readme);
  expect(block, 'the README shows .github/workflows/templates.yml').not.toBeNull();
  return parse(block![1]!) as Workflow;
}

/** The first line of the Markdown plan, by which the job finds its comment. */
const MARKER = '<!-- reportctl templates plan -->';
const REPOSITORY = 'agro/templates';

/** A stand-in for GitHub's CLI: pull requests' comments, merges, runs by commit, artifacts by run; every call recorded. */
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
const repo = 'repos/${REPOSITORY}/';
if (command === 'api') {
  const method = option('--method') ?? (field ? 'POST' : 'GET');
  const comments = /^repos\\/[^/]+\\/[^/]+\\/issues\\/(\\d+)\\/comments$/.exec(target);
  const pulls = /^repos\\/[^/]+\\/[^/]+\\/commits\\/(\\w+)\\/pulls$/.exec(target);
  if (!target.startsWith(repo)) fail('another repository: ' + target);
  if (comments && method === 'GET') {
    // What the workflow's --jq picks: the ids of the comments that start with the marker.
    if (!String(option('--jq')).includes('startswith("${MARKER}")')) fail('unexpected --jq ' + option('--jq'));
    for (const comment of state.comments[comments[1]] ?? []) if (comment.body.startsWith('${MARKER}')) process.stdout.write(comment.id + '\\n');
  } else if (comments && method === 'POST') {
    (state.comments[comments[1]] ??= []).push({ id: state.nextComment++, body: call.body });
  } else if (method === 'PATCH' && target.startsWith(repo + 'issues/comments/')) {
    const comment = Object.values(state.comments).flat().find((candidate) => String(candidate.id) === target.split('/').pop());
    if (!comment) fail('no comment ' + target);
    comment.body = call.body;
  } else if (pulls && method === 'GET') {
    const merged = state.merges[pulls[1]];
    if (!merged) fail('no pull request merged as ' + pulls[1]);
    if (option('--jq') === '.[0].number') process.stdout.write(merged.number + '\\n');
    else if (option('--jq') === '.[0].head.sha') process.stdout.write(merged.head + '\\n');
    else fail('unexpected --jq ' + option('--jq'));
  } else fail('unexpected api call ' + args.join(' '));
} else if (command === 'run' && target === 'list') {
  if (option('--event') !== 'pull_request' || option('--status') !== 'success') fail('unexpected run list ' + args.join(' '));
  const run = state.runs[option('--commit')];
  if (run !== undefined) process.stdout.write(run + '\\n');
} else if (command === 'run' && target === 'download') {
  const stored = path.join(process.env.ARTIFACTS, String(args[2]), option('--name'));
  if (!fs.existsSync(stored)) fail('no artifact ' + option('--name') + ' in run ' + args[2]);
  fs.cpSync(stored, option('--dir'), { recursive: true });
} else fail('unexpected ' + args.join(' '));
save();
`;

type GhState = {
  calls: Array<{ args: string[]; body?: string }>;
  comments: Record<string, Array<{ id: number; body: string }>>;
  nextComment: number;
  merges: Record<string, { number: number; head: string }>;
  runs: Record<string, number>;
};

/** The runner: the stubs on PATH, GitHub's state and its artifact store, shared by every run of a test. */
function runner() {
  const stubs = tempDir('reportctl-stubs-');
  const artifacts = tempDir('reportctl-artifacts-');
  const ghState = join(stubs, 'gh-state.json');
  writeFileSync(ghState, JSON.stringify({ calls: [], comments: {}, nextComment: 1000, merges: {}, runs: {} } satisfies GhState));
  writeFileSync(join(stubs, 'gh'), GH_STUB, { mode: 0o755 });
  writeFileSync(join(stubs, 'npm'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(stubs, 'npm-args')}"\n`, { mode: 0o755 });
  return {
    artifacts,
    ghState,
    path: `${stubs}:${reportctlBinDir()}:${process.env.PATH}`,
    gh: () => JSON.parse(readFileSync(ghState, 'utf8')) as GhState,
    setGh: (change: (state: GhState) => void) => {
      const state = JSON.parse(readFileSync(ghState, 'utf8')) as GhState;
      change(state);
      writeFileSync(ghState, JSON.stringify(state));
    },
    npmArgs: () => (existsSync(join(stubs, 'npm-args')) ? readFileSync(join(stubs, 'npm-args'), 'utf8').trim().split('\n') : undefined),
  };
}
type Runner = ReturnType<typeof runner>;

/** A fresh checkout of the templates repository: these template files, and reportctl's tarballs in tools/. */
function checkout(templates: Record<string, unknown>): string {
  const repo = tempDir('reportctl-templates-repo-');
  mkdirSync(join(repo, 'templates'));
  for (const [file, body] of Object.entries(templates)) writeFileSync(join(repo, 'templates', file), `${JSON.stringify(body, null, 2)}\n`);
  mkdirSync(join(repo, 'tools'));
  writeFileSync(join(repo, 'tools', 'reportctl.tgz'), 'the packed tarball');
  writeFileSync(join(repo, 'tools', 'reportctl-sqlite-node20.tgz'), 'the Node 20 driver beside it');
  const sha = spawnSync('sha256sum', ['tools/reportctl.tgz', 'tools/reportctl-sqlite-node20.tgz'], { cwd: repo, encoding: 'utf8' });
  writeFileSync(join(repo, 'tools', 'reportctl.tgz.sha256'), sha.stdout);
  return repo;
}

interface StepResult {
  job: string;
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}
interface RunResult {
  steps: StepResult[];
  /** Jobs that ran, each with whether it succeeded. */
  jobs: Record<string, 'success' | 'failure'>;
  /** Jobs held for an environment's approval. */
  waiting: string[];
  /** Required reviewers approve the run's environment: its waiting jobs run, in the same run. */
  approve(): RunResult;
}

interface RunOptions {
  event: 'pull_request' | 'push';
  runId: number;
  sha: string;
  pr?: number;
  vars: { REPORTCTL_BASE_URL: string };
  secrets: { REPORTCTL_API_KEY: string };
  /** More of the runner's environment. */
  env?: Record<string, string>;
}

/** `name == 'value'` on a name of the context: all the workflow's conditions are of this form. */
function holds(condition: string | undefined, lookup: (name: string) => string): boolean {
  if (condition === undefined) return true;
  const compared = /^([\w.-]+) == '([^']*)'$/.exec(condition);
  expect(compared, `a condition the test can evaluate: ${condition}`).not.toBeNull();
  return lookup(compared![1]!) === compared![2];
}

/**
 * Runs the workflow for one event: its jobs in order, those whose `if` holds and whose `needs`
 * succeeded, each to its first failing step; a job with an environment waits for `approve()`.
 */
function runWorkflow(workflow: Workflow, where: Runner, repo: string, options: RunOptions): RunResult {
  const context: Record<string, string> = {
    'github.token': 'ghs_stub',
    'github.event_name': options.event,
    'github.event.pull_request.number': options.pr === undefined ? '' : String(options.pr),
    'vars.REPORTCTL_BASE_URL': options.vars.REPORTCTL_BASE_URL,
    'secrets.REPORTCTL_API_KEY': options.secrets.REPORTCTL_API_KEY,
  };
  // Outputs not set are empty, as on GitHub; any other name must be one the test knows.
  const lookup = (name: string) => {
    if (/^(steps|needs)\./.test(name)) return context[name] ?? '';
    expect(context, `the test knows \${{ ${name} }}`).toHaveProperty([name]);
    return context[name]!;
  };
  const expand = (text: string) => text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_whole, name: string) => lookup(name));
  const expandAll = (values: Record<string, string> = {}) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, expand(value)]));
  const result: RunResult = { steps: [], jobs: {}, waiting: [], approve: () => proceed(true) };
  const proceed = (approved: boolean): RunResult => {
    for (const [jobName, job] of Object.entries(workflow.jobs)) {
      if (jobName in result.jobs) continue;
      if (job.needs !== undefined && result.jobs[job.needs] !== 'success') continue;
      if (!holds(job.if, lookup)) continue;
      if (job.environment !== undefined && !approved) {
        result.waiting.push(jobName);
        continue;
      }
      result.waiting = result.waiting.filter((waiting) => waiting !== jobName);
      for (const name of Object.keys(context).filter((key) => key.startsWith('steps.'))) delete context[name];
      const steps = runJob(job, jobName, { where, repo, options, expandAll, lookup, context, workflowEnv: expandAll(workflow.env) });
      result.steps.push(...steps);
      result.jobs[jobName] = steps.every((step) => step.status === 0) ? 'success' : 'failure';
      for (const [output, value] of Object.entries(job.outputs ?? {})) context[`needs.${jobName}.outputs.${output}`] = expand(value);
    }
    return result;
  };
  return proceed(false);
}

interface JobScope {
  where: Runner;
  repo: string;
  options: RunOptions;
  expandAll: (values?: Record<string, string>) => Record<string, string>;
  lookup: (name: string) => string;
  context: Record<string, string>;
  workflowEnv: Record<string, string>;
}

function runJob(job: Job, jobName: string, scope: JobScope): StepResult[] {
  const { where, repo, options, context } = scope;
  const githubEnv = join(tempDir(), 'github-env');
  writeFileSync(githubEnv, '');
  const jobEnv = { ...scope.workflowEnv, ...scope.expandAll(job.env) };
  const results: StepResult[] = [];
  for (const step of job.steps) {
    if (!holds(step.if, scope.lookup)) continue;
    const name = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
    if (step.uses?.startsWith('actions/upload-artifact@')) {
      const store = join(where.artifacts, String(options.runId), step.with!.name!);
      for (const path of step.with!.path!.split('\n').filter(Boolean)) cpSync(join(repo, path), join(store, path), { recursive: true });
      if (step.id) context[`steps.${step.id}.outputs.artifact-url`] = `https://github.com/${REPOSITORY}/actions/runs/${options.runId}/artifacts/${step.with!.name!}`;
      results.push({ job: jobName, name, status: 0, stdout: '', stderr: '' });
      continue;
    }
    if (step.uses?.startsWith('actions/download-artifact@')) {
      cpSync(join(where.artifacts, String(options.runId), step.with!.name!), join(repo, step.with!.path ?? '.'), { recursive: true });
      results.push({ job: jobName, name, status: 0, stdout: '', stderr: '' });
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
    const output = join(tempDir(), 'github-output');
    writeFileSync(script, step.run!);
    writeFileSync(output, '');
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 120_000,
      env: cleanEnv({
        PATH: where.path,
        ...options.env,
        ...jobEnv,
        ...scope.expandAll(step.env),
        ...added,
        GITHUB_ENV: githubEnv,
        GITHUB_OUTPUT: output,
        GITHUB_REPOSITORY: REPOSITORY,
        GITHUB_SHA: options.sha,
        GITHUB_RUN_ID: String(options.runId),
        GITHUB_EVENT_NAME: options.event,
        GH_STUB_STATE: where.ghState,
        ARTIFACTS: where.artifacts,
      }),
    });
    for (const line of readFileSync(output, 'utf8').split('\n').filter(Boolean)) {
      if (step.id) context[`steps.${step.id}.outputs.${line.slice(0, line.indexOf('='))}`] = line.slice(line.indexOf('=') + 1);
    }
    results.push({ job: jobName, name, status: ran.status, stdout: ran.stdout, stderr: ran.stderr });
    if (ran.status !== 0) break;
  }
  return results;
}

const failedStep = (result: RunResult) => result.steps.find((step) => step.status !== 0);
const show = (result: RunResult) => result.steps.map((step) => `--- ${step.job}: ${step.name}: ${step.status}\n${step.stdout}${step.stderr}`).join('\n');

/** A commit id for the test's runs: any 40 hex digits, told apart by `n`. */
const sha = (n: number) => n.toString(16).padStart(40, '0');

// The team's service: a real serve, one account per test.
const suite = serverForSuite();

/** One team: its service account, the runner, and the runs of its pull requests and merges. */
async function team() {
  const account: IssuedKey = await suite.server.newAccount();
  const where = runner();
  const service = { vars: { REPORTCTL_BASE_URL: suite.server.url }, secrets: { REPORTCTL_API_KEY: account.apiKey } };
  let runs = 0;
  return {
    account,
    where,
    service,
    templates: async () => ((await api(suite.server, 'GET', '/api/v2/templates?limit=100', { key: account.apiKey })).body as { data: Array<{ id: string; name: string; paperSize: string }> }).data,
    /** A template made on the service outside the workflow (what main's folder already holds). */
    create: async (body: Record<string, unknown>) => expect((await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body })).status).toBe(201),
    /** The pull request's checks on its head commit; GitHub records the run as that commit's. */
    pullRequest: (workflow: Workflow, pr: number, head: string, files: Record<string, unknown>, options: Partial<RunOptions> = {}) => {
      const runId = ++runs;
      const repo = checkout(files);
      const result = runWorkflow(workflow, where, repo, { event: 'pull_request', runId, sha: head, pr, ...service, ...options });
      if (failedStep(result) === undefined) where.setGh((state) => void (state.runs[head] = runId));
      return { result, repo, runId };
    },
    /** The push of a merge commit to main. */
    merge: (workflow: Workflow, pr: number, head: string, files: Record<string, unknown>, options: Partial<RunOptions> = {}) => {
      const runId = ++runs;
      const merged = sha(1000 + runId);
      where.setGh((state) => void (state.merges[merged] = { number: pr, head }));
      const repo = checkout(files);
      return { result: runWorkflow(workflow, where, repo, { event: 'push', runId, sha: merged, ...service, ...options }), repo, runId };
    },
  };
}

/**
 * Node's file writes of a plan (its temporary file beside plan.json) fail as on a full disk:
 * loaded into every node the step starts (NODE_OPTIONS), touching nothing else.
 */
function fullDiskForPlans(): string {
  const preload = join(tempDir(), 'full-disk.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
const writeFile = fs.promises.writeFile;
fs.promises.writeFile = function (file, ...rest) {
  if (/plan\\.json\\.[0-9a-f]+\\.tmp$/.test(String(file))) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
  return writeFile.call(this, file, ...rest);
};
`,
  );
  return `--require ${preload}`;
}

/**
 * A fault of each class, injected for one account, and the status `diff` ends with; `apply
 * --plan` too, but where the base URL is not the plan's: that it refuses (2) before any request.
 */
const FAULTS: Array<{ fault: string; status: number; applyStatus?: number; inject(account: IssuedKey): Promise<Partial<RunOptions>> }> = [
  { fault: 'a 500', status: 1, inject: async (account) => faultFor(account, '--status', '500') },
  { fault: 'a 503 past the retries', status: 1, inject: async (account) => faultFor(account, '--status', '503') },
  { fault: 'a refused key (401)', status: 3, inject: async () => ({ secrets: { REPORTCTL_API_KEY: 'rctl_revoked0000000000000000000000000000000000' } }) },
  { fault: 'a base URL that is not the API (404)', status: 4, applyStatus: 2, inject: async () => ({ vars: { REPORTCTL_BASE_URL: `${suite.server.url}/not-the-api` } }) },
  { fault: 'a 429 past the retries', status: 5, inject: async (account) => faultFor(account, '--status', '429') },
  { fault: 'no service', status: 6, applyStatus: 2, inject: async () => ({ vars: { REPORTCTL_BASE_URL: await closedUrl() } }) },
  // The service answers after 3 s; the client waits 1 s (REPORTCTL_TIMEOUT_MS, as a runner may set it).
  { fault: 'a time-out', status: 6, inject: async (account) => ({ ...(await faultFor(account, '--latency', '3000')), env: { REPORTCTL_TIMEOUT_MS: '1000' } }) },
];

async function faultFor(account: IssuedKey, ...action: string[]): Promise<Partial<RunOptions>> {
  await suite.server.admin('faults', 'add', '--route', '* /api/*', ...action, '--account', account.accountId);
  return {};
}

describe("README's GitHub workflow", () => {
  const workflow = readmeWorkflow();

  it('runs on pull requests and on pushes to main, with actions pinned to commits, least permissions, and main one run at a time', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    for (const step of steps.filter((candidate) => candidate.uses)) expect(step.uses).toMatch(/^actions\/[\w-]+@[0-9a-f]{40}$/);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
    const scripts = steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).not.toMatch(/npm (install|i) (-g|--global) (?!.*\.\/tools\/reportctl\.tgz)/);
    expect(workflow.env).toMatchObject({ REPORTCTL_API_KEY: '${{ secrets.REPORTCTL_API_KEY }}' });
    expect(workflow.jobs.apply!.concurrency).toEqual({ group: 'templates-apply', 'cancel-in-progress': false });
    // What was not reviewed waits for people: a protected environment.
    expect(workflow.jobs['apply-replanned']).toMatchObject({ needs: 'apply', environment: 'templates' });
  });

  it('the codes it lets pass are the outcomes the README gives diff and apply, which no failure uses', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/^\| 10 \| `templates diff`: the service's templates differ from the folder \|$/m);
    expect(readme).toMatch(/^\| 12 \| `templates apply --plan`: the plan is stale /m);
    const scripts = Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => step.run ?? '')).join('\n');
    expect([...scripts.matchAll(/-eq (\d+)/g)].map((match) => match[1]).sort()).toEqual(['10', '10', '12']);
    // Any other status fails the step with that status, so the job's log shows which.
    expect(scripts.match(/\|\| \{ s=\$\?; \[ "\$s" -eq 10 \] \|\| exit "\$s"; \}/g)).toHaveLength(2);
  });

  testWith('shellcheck', 'every run: step passes shellcheck (bash, as GitHub runs it)', () => {
    for (const step of Object.values(workflow.jobs).flatMap((job) => job.steps.filter((candidate) => candidate.run))) {
      const checked = spawnSync('shellcheck', ['--shell=bash', '--format=gcc', '-'], { input: step.run, encoding: 'utf8' });
      expect(checked.stdout, step.name).toBe('');
    }
  });

  // Each run starts the CLI a few times: seconds alone, far more on a loaded machine.
  it('on a pull request: checks the tarball, comments the Markdown plan once with its pictures and updates it; on main: applies that plan', { timeout: 300_000 }, async () => {
    const { where, pullRequest, merge, templates } = await team();
    const files = { 'from-git.json': generalBody({ name: 'From git', paperSize: 'a4' }) };
    const first = pullRequest(workflow, 7, sha(1), files);
    expect(failedStep(first.result), show(first.result)).toBeUndefined();
    expect(where.npmArgs()).toEqual(['install', '--global', '--ignore-scripts', './tools/reportctl.tgz']);
    const plan = readFileSync(join(first.repo, 'plan.md'), 'utf8');
    expect(plan.startsWith(`${MARKER}\n`)).toBe(true);
    expect(plan).toMatch(/1 to create, 0 to replace, 0 to delete/);
    expect(plan).toContain('From git');
    expect(plan).toContain(`<a href="https://github.com/${REPOSITORY}/actions/runs/${first.runId}/artifacts/plan">the plan's previews</a>`);
    expect(where.gh().comments).toEqual({ 7: [{ id: 1000, body: plan }] });
    expect(JSON.parse(readFileSync(join(where.artifacts, String(first.runId), 'plan', 'plan.json'), 'utf8'))).toHaveProperty('planVersion', 2);
    expect(readdirSync(join(where.artifacts, String(first.runId), 'plan', 'previews'))).toContain('index.html');

    // The next push: the same comment, now holding the new plan.
    const second = pullRequest(workflow, 7, sha(2), { ...files, 'second.json': generalBody({ name: 'Second' }) });
    expect(failedStep(second.result), show(second.result)).toBeUndefined();
    const secondPlan = readFileSync(join(second.repo, 'plan.md'), 'utf8');
    expect(secondPlan).toMatch(/2 to create/);
    expect(where.gh().comments).toEqual({ 7: [{ id: 1000, body: secondPlan }] });
    expect(where.gh().calls.filter((call) => call.args.includes('PATCH')).map((call) => call.args[3])).toEqual([`repos/${REPOSITORY}/issues/comments/1000`]);

    // Merged: main applies the plan the pull request's last run uploaded.
    const main = merge(workflow, 7, sha(2), { ...files, 'second.json': generalBody({ name: 'Second' }) });
    expect(failedStep(main.result), show(main.result)).toBeUndefined();
    expect(main.result.jobs).toEqual({ apply: 'success' });
    const applied = main.result.steps.at(-1)!;
    expect(applied.stdout).toMatch(/created +"From git"/);
    expect(applied.stdout).toMatch(/created +"Second"/);
    expect((await templates()).map((template) => template.name).sort()).toEqual(['From git', 'Second']);
  });

  it('two pull requests merged one after the other both reach the service, with no step of anyone', { timeout: 300_000 }, async () => {
    const { pullRequest, merge, templates, where, create } = await team();
    const base = { 'base.json': generalBody({ name: 'Base' }) };
    await create(base['base.json']);
    const a = { 'a.json': generalBody({ name: 'From A' }) };
    const b = { 'b.json': generalBody({ name: 'From B', paperSize: 'legal' }) };
    // Both branched from the same main, both planned before either was merged.
    const prA = pullRequest(workflow, 11, sha(11), { ...base, ...a });
    const prB = pullRequest(workflow, 12, sha(12), { ...base, ...b });
    for (const pr of [prA, prB]) expect(failedStep(pr.result), show(pr.result)).toBeUndefined();
    expect(readFileSync(join(prB.repo, 'plan.md'), 'utf8')).toMatch(/1 to create, 0 to replace, 0 to delete, 1 unchanged/);

    const mergedA = merge(workflow, 11, sha(11), { ...base, ...a });
    expect(failedStep(mergedA.result), show(mergedA.result)).toBeUndefined();
    // B's plan was made before A's files were on main and A's template on the service.
    const mergedB = merge(workflow, 12, sha(12), { ...base, ...a, ...b });
    expect(failedStep(mergedB.result), show(mergedB.result)).toBeUndefined();
    expect(mergedB.result.jobs).toEqual({ apply: 'success' });
    expect(mergedB.result.waiting).toEqual([]);
    expect(mergedB.result.steps.at(-1)!.stdout).toMatch(/^Plan: 1 to create, 0 to replace, 0 to delete, 2 unchanged\.$/m);
    expect((await templates()).map((template) => template.name).sort()).toEqual(['Base', 'From A', 'From B']);
    // Nothing was posted after the merges: no re-plan was needed.
    expect(Object.keys(where.gh().comments).sort()).toEqual(['11', '12']);
  });

  it('a merged plan that would make a change nobody reviewed is planned again, posted, and applied only once approved', { timeout: 300_000 }, async () => {
    const { pullRequest, merge, templates, where, account, create } = await team();
    const base = { 'base.json': generalBody({ name: 'Base' }) };
    await create(base['base.json']);
    const added = { ...base, 'added.json': generalBody({ name: 'Added' }) };
    const pr = pullRequest(workflow, 21, sha(21), added);
    expect(failedStep(pr.result), show(pr.result)).toBeUndefined();
    // Meanwhile someone edits Base on the service: main's folder would undo that, unreviewed.
    const edited = (await templates()).find((template) => template.name === 'Base')!;
    expect((await api(suite.server, 'PUT', `/api/v2/templates/${edited.id}`, { key: account.apiKey, body: generalBody({ name: 'Base', paperSize: 'a3' }) })).status).toBe(200);

    const main = merge(workflow, 21, sha(21), added);
    expect(failedStep(main.result), show(main.result)).toBeUndefined();
    expect(main.result.jobs).toEqual({ apply: 'success' });
    expect(main.result.waiting).toEqual(['apply-replanned']);
    expect(main.result.steps.find((step) => step.name.startsWith('Apply the reviewed plan'))!.stderr).toMatch(/template "Base" \S+ was replaced on the service since the plan/);
    // Nothing applied: Base keeps its edit and Added is not there.
    expect((await templates()).map((template) => [template.name, template.paperSize])).toEqual([['Base', 'a3']]);
    const posted = where.gh().comments['21']!.at(-1)!.body;
    expect(posted).toMatch(/^Merged, but the reviewed plan is stale\. This is the plan of the merged commit: approve the `templates` environment of run \d+ to carry it out\.\n\n<!-- reportctl templates plan -->\n/);
    expect(posted).toMatch(/1 to create, 1 to replace, 0 to delete, 0 unchanged/);
    expect(posted).toContain('paperSize&#58; a3 → letter');

    const approved = main.result.approve();
    expect(failedStep(approved), show(approved)).toBeUndefined();
    expect(approved.jobs).toEqual({ apply: 'success', 'apply-replanned': 'success' });
    expect((await templates()).map((template) => [template.name, template.paperSize]).sort()).toEqual([
      ['Added', 'letter'],
      ['Base', 'letter'],
    ]);
  });

  it('the pull-request job fails at the plan on every error, and posts nothing: 500, 503, 401, 404, 429, no service, a time-out, a disk that refuses --out', { timeout: 300_000 }, async () => {
    const cases = [...FAULTS, { fault: 'a disk that refuses --out', status: 1, inject: async (): Promise<Partial<RunOptions>> => ({ env: { NODE_OPTIONS: fullDiskForPlans() } }) }];
    for (const { fault, status, inject } of cases) {
      const { pullRequest, where, account } = await team();
      const pr = pullRequest(workflow, 7, sha(30), { 'from-git.json': generalBody({ name: 'From git' }) }, await inject(account));
      const failed = failedStep(pr.result);
      expect(failed?.name, `${fault}\n${show(pr.result)}`).toMatch(/^Plan/);
      expect(failed!.status, `${fault}\n${show(pr.result)}`).toBe(status);
      expect(failed!.stderr, fault).toMatch(/^reportctl: /m);
      expect(where.gh().comments, fault).toEqual({});
      expect(existsSync(join(where.artifacts, '1')), fault).toBe(false);
      expect(pr.result.jobs, fault).toEqual({ plan: 'failure' });
    }
  });

  it("main's job fails at apply on every error, and nothing is written: 500, 503, 401, 404, 429, no service, a time-out", { timeout: 300_000 }, async () => {
    for (const { fault, status, applyStatus, inject } of FAULTS) {
      const { pullRequest, merge, account, templates } = await team();
      const files = { 'from-git.json': generalBody({ name: 'From git' }) };
      expect(failedStep(pullRequest(workflow, 7, sha(40), files).result), fault).toBeUndefined();
      const main = merge(workflow, 7, sha(40), files, await inject(account));
      const failed = failedStep(main.result);
      expect(failed?.name, `${fault}\n${show(main.result)}`).toMatch(/^Apply the reviewed plan/);
      expect(failed!.status, `${fault}\n${show(main.result)}`).toBe(applyStatus ?? status);
      expect(main.result.jobs, fault).toEqual({ apply: 'failure' });
      await suite.server.admin('faults', 'clear');
      expect(await templates(), fault).toEqual([]);
    }
  });

  it('a template the service would refuse fails the pull-request check (diff exits 1), and nothing is commented', { timeout: 120_000 }, async () => {
    const { pullRequest, where } = await team();
    const pr = pullRequest(workflow, 7, sha(50), { 'bad.json': generalBody({ name: 'Bad', analysisType: 'countng' }) });
    const failed = failedStep(pr.result);
    expect(failed?.name, show(pr.result)).toMatch(/^Plan/);
    expect(failed!.status).toBe(1);
    // The reasons are in the job's log.
    expect(failed!.stdout).toMatch(/bad\.json: invalid[^]*analysisType: valid: counting, replanting, path/);
    expect(where.gh().comments).toEqual({});
  });

  it('a tarball that does not match its sha256, reportctl or the Node 20 driver beside it, stops the job before anything is installed', { timeout: 60_000 }, async () => {
    for (const tarball of ['reportctl.tgz', 'reportctl-sqlite-node20.tgz']) {
      const { where, service } = await team();
      const repo = checkout({ 'from-git.json': generalBody({ name: 'From git' }) });
      writeFileSync(join(repo, 'tools', tarball), 'another tarball');
      const result = runWorkflow(workflow, where, repo, { event: 'pull_request', runId: 1, sha: sha(60), pr: 7, ...service });
      expect(failedStep(result)?.name, show(result)).toBe('Install reportctl');
      expect(failedStep(result)!.stdout).toContain(`tools/${tarball}: FAILED`);
      expect(where.npmArgs()).toBeUndefined();
    }
  });
});
