// `reportctl completion`: its flags; the scripts in real bash, zsh and fish for every command and
// its ids; and the ids every verb's completion offers (__complete): ids that look like ids, names
// as plain text, and nothing at all when the service fails.
import { describe, expect, it, beforeAll } from 'vitest';
import { registerCompletion, runCompleteIds } from '../../../src/cli/commands/completion/index.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../../helpers/cli.js';
import { tempDir, api } from '../../helpers/server.js';
import { runInProcess, startInProcessService, inProcessServiceForSuite, mockAgent, testDeps } from '../../helpers/in-process.js';
import { testWith } from '../../helpers/programs.js';
import { fakeService, json } from '../../helpers/fake-service.js';
import { zshComplete } from '../../helpers/zsh-complete.js';
import { generalBody } from '../../contract/fixtures.js';

describe('completion flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCompletion(program, deps, wrap, runF),
    [
      [['completion', 'bash'], { options: {}, args: ['bash'] }],
      [['completion', 'fish'], { options: {}, args: ['fish'] }],
      [['completion', 'powershell'], { usage: /value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish/ }],
      [['completion'], { usage: /missing required argument 'shell'/ }],
    ],
  );
  // The hidden verb the shell scripts call for ids.
  itParsesFlags(
    (program, deps, wrap, runF) => registerCompletion(program, deps, wrap, undefined, runF),
    [
      [['__complete', 'template-ids'], { options: {}, args: ['template-ids'] }],
      [['__complete', 'run-ids', '--names'], { options: { names: true }, args: ['run-ids'] }],
      [['__complete'], { usage: /missing required argument 'kind'/ }],
    ],
  );
});

const files = { bash: 'completions/reportctl.bash', zsh: 'completions/_reportctl', fish: 'completions/reportctl.fish' } as const;

/** A `reportctl` on PATH (the scripts call it for ids), pointing at the built CLI. */
let binDir: string;
beforeAll(() => {
  binDir = tempDir('reportctl-bin-');
  const wrapper = join(binDir, 'reportctl');
  writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(wrapper, 0o755);
});

const scripts = new Map<keyof typeof files, string>();
/** What `reportctl completion SHELL` prints, in a file: made once per shell, for this file's tests. */
function scriptFor(shell: keyof typeof files): string {
  let file = scripts.get(shell);
  if (file === undefined) {
    file = join(tempDir(), `completion.${shell}`);
    writeFileSync(file, execFileSync(process.execPath, [BIN, 'completion', shell], { encoding: 'utf8' }));
    scripts.set(shell, file);
  }
  return file;
}

/** Ends what a shell offers for one line, when one shell completes several lines. */
const END_OF_LINE = '<end of offers>';

/** One shell's output for `count` lines: what it offered for each, in order. */
function perLine(output: string, count: number): string[] {
  const parts = output.split(`${END_OF_LINE}\n`);
  expect(parts.length, output).toBe(count + 1);
  return parts.slice(0, count);
}

/**
 * A bash program that sources `script` once and prints what it offers for each of `lines`, one
 * per line, each line's offers ended by END_OF_LINE.
 */
function bashProgram(script: string, lines: string[]): string {
  const one = (line: string) => `COMP_LINE=${JSON.stringify(line)}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
COMPREPLY=()
_reportctl
printf '%s\\n' "\${COMPREPLY[@]}"
printf '%s\\n' ${JSON.stringify(END_OF_LINE)}`;
  return [`source ${JSON.stringify(script)}`, ...lines.map(one)].join('\n');
}

/** What bash would offer for each of `lines` (completing its last word), from one bash. */
function bashComplete(lines: string[], env: Record<string, string> = {}): string[][] {
  const program = bashProgram(scriptFor('bash'), lines);
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    encoding: 'utf8',
    env: { ...process.env, ...env, PATH: `${binDir}:${process.env.PATH}` },
  });
  expect(result.status).toBe(0);
  return perLine(result.stdout, lines.length).map((offered) => offered.split('\n').filter(Boolean));
}

describe('completion scripts', () => {
  it.each(Object.entries(files))('completions/%s is up to date with the command tree', async (shell, file) => {
    const result = await runInProcess(['completion', shell]);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8'), `run: npm run build && npm run completions`).toBe(result.stdout);
  });

  it('rejects an unknown shell with exit 2', async () => {
    const result = await runInProcess(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bash, zsh, fish/);
  });

  it('bash: completes commands, subcommands, flags and enum values', () => {
    const cases: Array<[line: string, offered: unknown]> = [
      ['reportctl tem', ['templates']],
      ['reportctl templates ', expect.arrayContaining(['list', 'get', 'create', 'delete'])],
      ['reportctl templates list --analysis-type ', ['counting', 'replanting', 'path']],
      // An alias is its verb: `ls` is `list`.
      ['reportctl templates ls --analysis-type ', ['counting', 'replanting', 'path']],
      ['reportctl templates list --report-c', ['--report-category']],
      ['reportctl --json templates list --report-category v', ['vegetation_index']],
      ['reportctl completion ', ['bash', 'zsh', 'fish']],
      ['reportctl config set ', ['base-url', 'api-key', 'key-header', 'language']],
      // Only the first argument has choices: the value after a key is the user's.
      ['reportctl config set language ', []],
    ];
    const offered = bashComplete(cases.map(([line]) => line));
    cases.forEach(([line, expected], at) => expect(offered[at], line).toEqual(expected));
  });

  it('bash: completes queue-run statuses', () => {
    const [statuses] = bashComplete(['reportctl queue-runs list --status ']);
    expect(statuses).toEqual(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']);
  });

  testWith('fish', 'fish: completes commands, verbs, flags and enum values, with descriptions', () => {
    const lines = [
      'reportctl tem',
      'reportctl templates ',
      'reportctl queue-runs list --status ',
      'reportctl templates list --analysis-type ',
      'reportctl queue-runs list --st',
      'reportctl completion ',
      'reportctl config set language ',
      'reportctl templates rm --y',
    ];
    // One fish for every line; the checks below ask for lines of this list only.
    const offered = fishComplete(scriptFor('fish'), lines);
    const complete = (line: string) => {
      expect(lines).toContain(line);
      return offered[lines.indexOf(line)]!;
    };
    expect(complete('reportctl tem')).toEqual([{ value: 'templates', description: expect.stringMatching(/^Report templates/) }]);
    expect(complete('reportctl templates ')).toEqual(
      expect.arrayContaining([
        { value: 'list', description: expect.stringMatching(/^List the account's templates/) },
        { value: 'delete', description: expect.stringMatching(/^Delete a template/) },
      ]),
    );
    expect(complete('reportctl queue-runs list --status ')).toEqual(
      expect.arrayContaining([
        { value: 'pending', description: 'waiting to be claimed' },
        { value: 'cancelled', description: 'stopped before it finished' },
      ]),
    );
    expect(complete('reportctl templates list --analysis-type ').map((row) => row.value).sort()).toEqual(['counting', 'path', 'replanting']);
    expect(complete('reportctl templates list --analysis-type ')).toContainEqual({ value: 'counting', description: 'plant counts per lot' });
    expect(complete('reportctl queue-runs list --st')).toEqual([{ value: '--status', description: 'only runs in this state' }]);
    expect(complete('reportctl completion ').map((row) => row.value).sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(complete('reportctl config set language ')).toEqual([]);
    expect(complete('reportctl templates rm --y')).toEqual([{ value: '--yes', description: expect.stringMatching(/./) }]);
  });

  it('bash: completes template and run ids from the service, and stays silent when it cannot', async () => {
    // In this process: bash runs asynchronously so that the service can answer meanwhile.
    const server = await startInProcessService();
    try {
      const account = await server.newAccount();
      const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey, REPORTCTL_CONFIG_DIR: tempDir() };
      const created = await runInProcess(['templates', 'create', '--from-preset', 'preset-counting-summary', '--name', 'Completion check'], { env });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      expect(await valuesIn('bash', `reportctl templates get ${id.slice(0, 4)}`, env, binDir)).toEqual([id]);
      const queue = await server.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'q', '--step', 'lot-1:counting');
      const run = await server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id);
      expect(await valuesIn('bash', 'reportctl queue-runs watch ', env, binDir)).toEqual([run.id]);
      expect(await valuesIn('bash', 'reportctl templates create --from-preset preset-counting-summ', env, binDir)).toEqual(['preset-counting-summary']);
      // A service that is not there: no candidates, no noise, no delay worth noticing.
      expect(await valuesIn('bash', 'reportctl templates get ', { ...env, REPORTCTL_BASE_URL: 'http://127.0.0.1:9' }, binDir)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

/** A candidate a shell offers: the word, and the description it shows beside it (zsh: its whole line). */
interface Candidate {
  value: string;
  description: string;
}

/** What fish offers for `line` (`complete -C`, as fish does on TAB): `value<TAB>description` rows. */
function fishRows(output: string): Candidate[] {
  return output
    .split('\n')
    .filter(Boolean)
    .map((row) => {
      const [value, ...description] = row.split('\t');
      return { value: value!, description: description.join('\t') };
    });
}

/** A fish program that sources `script` once and completes each of `lines` (`complete -C`, as on TAB). */
const fishProgram = (script: string, lines: string[]) =>
  [`source ${script}`, ...lines.map((line) => `complete -C ${JSON.stringify(line)}; printf '%s\\n' ${JSON.stringify(END_OF_LINE)}`)].join('; ');

/** What fish offers for each of `lines`, from one fish. */
function fishComplete(script: string, lines: string[], env: Record<string, string> = {}): Candidate[][] {
  const result = spawnSync('fish', ['--no-config', '-c', fishProgram(script, lines)], {
    encoding: 'utf8',
    env: { ...process.env, ...env, PATH: `${binDir}:${process.env.PATH}` },
  });
  expect(result.status, result.stderr).toBe(0);
  return perLine(result.stdout, lines.length).map(fishRows);
}

/**
 * What `shell` offers for each of `lines` (completing its last word), with `path` first on PATH:
 * one bash or fish for all of them (zsh: one per line). Not spawnSync: a fake service in this
 * process must answer while the shell runs.
 */
async function completeEach(shell: keyof typeof files, lines: string[], env: Record<string, string>, path: string): Promise<Candidate[][]> {
  const script = scriptFor(shell);
  if (shell === 'zsh') {
    const offered: Candidate[][] = [];
    for (const line of lines) {
      offered.push((await zshComplete(script, line, { load: 'fpath', env, path })).map(({ value, display }) => ({ value, description: display })));
    }
    return offered;
  }
  const program = shell === 'fish' ? fishProgram(script, lines) : bashProgram(script, lines);
  const args = shell === 'fish' ? ['--no-config', '-c'] : ['--norc', '--noprofile', '-c'];
  const child = spawn(shell, [...args, program], { env: { ...process.env, ...env, PATH: `${path}:${process.env.PATH}` } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(status, stderr).toBe(0);
  return perLine(stdout, lines.length).map(fishRows);
}

const completeIn = async (shell: keyof typeof files, line: string, env: Record<string, string>, path: string) => (await completeEach(shell, [line], env, path))[0]!;
const valuesIn = async (...args: Parameters<typeof completeIn>) => (await completeIn(...args)).map((candidate) => candidate.value);

describe('zsh: a native script (_arguments, _describe), from $fpath or sourced', () => {
  testWith('zsh', 'zsh ($fpath): commands, verbs, flags and enum values come with their descriptions', async () => {
    const script = scriptFor('zsh');
    expect(readFileSync(script, 'utf8')).not.toMatch(/bashcompinit/);
    const complete = (line: string) => zshComplete(script, line, { load: 'fpath' });

    const commands = await complete('reportctl ');
    expect(commands.map((candidate) => candidate.value)).toEqual(expect.arrayContaining(['templates', 'queue-runs', 'formula', 'completion', 'doctor']));
    expect(commands.map((candidate) => candidate.value)).not.toContain('__complete');
    expect(commands).toContainEqual({ value: 'queue-runs', display: expect.stringMatching(/^queue-runs +-- Runs of saved queues/) });

    const verbs = await complete('reportctl templates ');
    expect(verbs.map((candidate) => candidate.value)).toEqual(['list', 'get', 'presets', 'create', 'replace', 'edit', 'delete', 'validate', 'schema', 'preview', 'pull', 'diff', 'apply', 'show-plan']);
    expect(verbs).toContainEqual({ value: 'delete', display: expect.stringMatching(/^delete +-- Delete a template/) });

    const flags = await complete('reportctl templates list --');
    expect(flags).toContainEqual({ value: '--analysis-type', display: expect.stringMatching(/^--analysis-type +-- only this analysis type$/) });
    // The root's flags are global: offered after a verb too.
    expect(flags).toContainEqual({ value: '--json', display: expect.stringMatching(/^--json +-- print the service's JSON/) });

    expect(await complete('reportctl queue-runs list --status ')).toEqual([
      { value: 'pending', display: expect.stringMatching(/^pending +-- waiting to be claimed$/) },
      { value: 'claimed', display: expect.stringMatching(/^claimed +-- taken by a worker, not started$/) },
      { value: 'running', display: expect.stringMatching(/^running +-- steps in progress$/) },
      { value: 'completed', display: expect.stringMatching(/^completed +-- every step completed$/) },
      { value: 'failed', display: expect.stringMatching(/^failed +-- a step failed$/) },
      { value: 'cancelled', display: expect.stringMatching(/^cancelled +-- stopped before it finished$/) },
    ]);
    // commander takes --flag=value too.
    expect((await complete('reportctl queue-runs list --status=c')).map((candidate) => candidate.value)).toEqual(['claimed', 'completed', 'cancelled']);
    expect(await complete('reportctl --json analyses list --analysis-type ')).toContainEqual({
      value: 'replanting',
      display: expect.stringMatching(/^replanting +-- gaps to replant$/),
    });
    expect((await complete('reportctl completion ')).map((candidate) => candidate.value)).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete('reportctl config get ')).map((candidate) => candidate.value)).toEqual(['base-url', 'api-key', 'key-header', 'language']);
    expect(await complete('reportctl config set language ')).toEqual([]);
  }, 120_000);

  testWith('zsh', 'zsh (sourced after compinit): the same script registers itself with compdef; aliases complete as their verb', async () => {
    const script = scriptFor('zsh');
    const complete = (line: string) => zshComplete(script, line, { load: 'source' });
    expect(await complete('reportctl completion ')).toEqual([
      { value: 'bash', display: expect.stringMatching(/^bash +-- /) },
      { value: 'zsh', display: expect.stringMatching(/^zsh +-- /) },
      { value: 'fish', display: expect.stringMatching(/^fish +-- /) },
    ]);
    expect((await complete('reportctl templates ls --analysis-type ')).map((candidate) => candidate.value)).toEqual(['counting', 'replanting', 'path']);
  }, 60_000);
});

describe('template and run ids with their names (zsh and fish), from a real service', () => {
  const marks = tempDir('reportctl-marks-');
  // Names the service accepts that a careless script would run or misread: a colon (zsh's
  // separator), quotes, $(…), backticks, a prompt escape and a backslash escape.
  const HOSTILE_NAME = `Lot 8: it's "wet" $(touch ${marks}/dollar) \`touch ${marks}/backtick\` %F{red}red%f \\e[2J`;

  async function withTemplates(body: (env: Record<string, string>, ids: { plain: string; hostile: string; run: string }) => Promise<void>): Promise<void> {
    // In this process: the shells run asynchronously so that the service can answer meanwhile.
    const server = await startInProcessService();
    try {
      const account = await server.newAccount();
      const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey, REPORTCTL_CONFIG_DIR: tempDir(), REPORTCTL_TIMEOUT_MS: '20000' };
      const create = async (name: string) => {
        const created = await runInProcess(['templates', 'create', '--from-preset', 'preset-counting-summary', '--name', name], { env });
        expect(created.code, created.stderr).toBe(0);
        return created.stdout.trim();
      };
      const plain = await create('Lot 7 — stand count');
      const hostile = await create(HOSTILE_NAME);
      const queue = await server.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'q', '--step', 'lot-1:counting');
      const run = await server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id, '--name', 'North field: pass 2');
      await body(env, { plain, hostile, run: run.id });
    } finally {
      await server.stop();
    }
  }

  testWith('zsh', 'zsh: template and run ids are offered with their names; a hostile name is shown as text, never run', async () => {
    const script = scriptFor('zsh');
    await withTemplates(async (env, ids) => {
      const complete = (line: string) => zshComplete(script, line, { load: 'fpath', env, path: binDir });
      const templates = await complete('reportctl templates get ');
      expect(templates).toHaveLength(2);
      expect(templates).toContainEqual({ value: ids.plain, display: `${ids.plain}  -- Lot 7 — stand count` });
      expect(templates).toContainEqual({ value: ids.hostile, display: `${ids.hostile}  -- ${HOSTILE_NAME}` });
      expect(await complete(`reportctl templates delete ${ids.hostile.slice(0, 6)}`)).toEqual([{ value: ids.hostile, display: `${ids.hostile}  -- ${HOSTILE_NAME}` }]);
      expect(await complete('reportctl queue-runs watch ')).toEqual([{ value: ids.run, display: `${ids.run}  -- North field: pass 2` }]);
      expect(readdirSync(marks)).toEqual([]);
    });
  }, 120_000);

  testWith('fish', 'fish: template and run ids are offered with their names; a hostile name is shown as text, never run', async () => {
    await withTemplates(async (env, ids) => {
      const templates = await completeIn('fish', 'reportctl templates get ', env, binDir);
      expect(templates).toHaveLength(2);
      expect(templates).toContainEqual({ value: ids.plain, description: 'Lot 7 — stand count' });
      expect(templates).toContainEqual({ value: ids.hostile, description: HOSTILE_NAME });
      expect(await completeIn('fish', 'reportctl queue-runs get ', env, binDir)).toEqual([{ value: ids.run, description: 'North field: pass 2' }]);
      expect(readdirSync(marks)).toEqual([]);
    });
  }, 120_000);
});

describe('completion never runs what the service sends (issue 17, item 1)', () => {
  // Where the attack would leave its mark: a file per form, in a folder of its own.
  const marks = tempDir('reportctl-marks-');
  const HOSTILE = [
    `$(touch\${IFS}${marks}/dollar)`,
    `\`touch\${IFS}${marks}/backtick\``,
    `x;touch\${IFS}${marks}/semicolon`,
    `ok-$(touch\${IFS}${marks}/suffix)`,
    `two\nlines$(touch\${IFS}${marks}/newline)`,
  ];
  const GOOD = { template: 'tpl-3c44560e', run: 'run_42', preset: 'preset-counting-summary' };
  // The good items' name: a colon, quotes, $(…), and what a terminal would act on (OSC title,
  // BEL, C1 CSI, a line break). zsh and fish show it as text; bash shows no names.
  const NAME = `Lot 9: "it's" $(touch\${IFS}${marks}/name)\u001b]0;owned\u0007\u009b2J\nnext line`;
  // eslint-disable-next-line no-control-regex -- the characters this test must not see
  const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
  const shells = ['bash', 'zsh', 'fish'] as const;
  const cases: [line: string, good: string][] = [
    ['reportctl templates get ', GOOD.template],
    ['reportctl queue-runs watch ', GOOD.run],
    ['reportctl templates create --from-preset ', GOOD.preset],
  ];

  // bash is everywhere; zsh and fish are external programs (test/helpers/programs.ts).
  const inShell = (shell: (typeof shells)[number], title: string, body: () => Promise<void>, timeoutMs: number) =>
    shell === 'bash' ? it(title, body, timeoutMs) : testWith(shell, title, body, timeoutMs);

  function expectNoMarks(): void {
    expect(readdirSync(marks)).toEqual([]);
  }

  for (const shell of shells) {
    inShell(shell, `${shell}: ids from a hostile service are dropped, never run; good ids are still offered`, async () => {
      const stamp = '2026-01-01T00:00:00.000Z';
      const name = (id: string) => (Object.values(GOOD).includes(id) ? NAME : 'n');
      const template = (id: string) => ({ id, userId: 'u', name: name(id), analysisType: 'counting', reportType: 'stand_count', reportTypeId: 'rt', reportCategory: 'general', selectedStatistics: [], createdAt: stamp, updatedAt: stamp });
      const run = (id: string) => ({ id, name: name(id), queueId: 'q', status: 'pending', estimatedHa: 1, steps: [], createdAt: stamp, startedAt: null, finishedAt: null });
      const preset = (id: string) => ({ id, name: name(id), description: 'd', analysisType: 'counting', reportCategory: 'general', seedPayload: {} });
      const page = <T>(make: (id: string) => T, good: string) => {
        const data = [...HOSTILE, good].map(make);
        return { total: data.length, page: 1, limit: 100, data };
      };
      const service = await fakeService((request, response) => {
        const path = (request.url ?? '').split('?')[0];
        if (path === '/api/v2/templates') json(response, 200, page(template, GOOD.template));
        else if (path === '/api/v2/queue-runs') json(response, 200, page(run, GOOD.run));
        else if (path === '/api/v2/templates/presets') json(response, 200, page(preset, GOOD.preset));
        else json(response, 404, { error: 'NOT_FOUND', message: 'no' });
      });
      // A generous wait: on a loaded machine 2 s may pass before the answer, and no ids come.
      const env = { REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: 'rctl_fake', REPORTCTL_CONFIG_DIR: tempDir(), REPORTCTL_TIMEOUT_MS: '20000' };
      const offeredEach = await completeEach(shell, cases.map(([line]) => line), env, binDir);
      for (const [at, [line, good]] of cases.entries()) {
        const offered = offeredEach[at]!;
        expect(offered.map((candidate) => candidate.value), line).toEqual([good]);
        if (shell === 'bash') continue;
        // reportctl shows the name's control characters as \xHH and its line break as a space.
        expect(offered[0]!.description).toMatch(/Lot 9: "it's" \$\(touch\$\{IFS\}.*\/name\)\\x1b\]0;owned\\x07\\x9b2J next line$/);
        expect(offered[0]!.description).not.toMatch(CONTROL);
      }
      expect(service.requests.length).toBe(cases.length);
      expectNoMarks();
    }, 120_000);

    // `__complete` already drops such ids; this proves the script does not rely on it (an
    // older reportctl on PATH, or a compromised one, prints them straight to the script).
    inShell(shell, `${shell}: the script itself never evaluates what \`reportctl __complete\` prints`, async () => {
      const stubDir = tempDir('reportctl-stub-');
      const stub = join(stubDir, 'reportctl');
      // With --names (zsh, fish), a raw name after a tab, as a compromised reportctl would print it.
      const rawName = `Lot 9: $(touch\${IFS}${marks}/stub)\u001b]0;owned\u0007\u009b2J`;
      const lines = (named: boolean) => [...HOSTILE.filter((id) => !id.includes('\n')), named ? `tpl-3c44560e\t${rawName}` : 'tpl-3c44560e', 'tpl-ffff'].join('\n');
      writeFileSync(stub, `#!/bin/sh\ncase "$*" in\n*--names*) cat <<'LINES'\n${lines(true)}\nLINES\n;;\n*) cat <<'LINES'\n${lines(false)}\nLINES\n;;\nesac\n`);
      chmodSync(stub, 0o755);
      const offered = await completeIn(shell, 'reportctl templates get tpl-3', {}, stubDir);
      expect(offered.map((candidate) => candidate.value)).toEqual(['tpl-3c44560e']);
      if (shell !== 'bash') {
        // The script itself turns control characters into '?'.
        expect(offered[0]!.description).toMatch(/Lot 9: \$\(touch\$\{IFS\}.*\/stub\)\?\]0;owned\?\?2J$/);
        expect(offered[0]!.description).not.toMatch(CONTROL);
      }
      // `view` is an alias of `get`: the same ids.
      const idLines = ['reportctl templates get ', 'reportctl templates view ', 'reportctl templates create --from-preset '];
      const offeredEach = await completeEach(shell, idLines, {}, stubDir);
      idLines.forEach((line, at) => expect(offeredEach[at]!.map((candidate) => candidate.value).sort(), line).toEqual(['tpl-3c44560e', 'tpl-ffff']));
      expectNoMarks();
      expect(existsSync(marks)).toBe(true);
    }, 60_000);
  }
});

// The completion scripts trust only what __complete prints: ids that look like ids, names as text.
describe('__complete, run in process', () => {
  const suite = inProcessServiceForSuite();

  it('prints id<TAB>name with --names and bare ids without, for the templates of the key in use', async () => {
    const body = generalBody({ name: 'Lot 8: "wet" $(touch x)' });
    const created = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;

    const named = testDeps({ env: suite.env });
    await runCompleteIds('template-ids', { names: true }, named.deps);
    expect(named.stdout()).toBe(`${id}\tLot 8: "wet" $(touch x)\n`);

    const bare = testDeps({ env: suite.env });
    await runCompleteIds('template-ids', {}, bare.deps);
    expect(bare.stdout()).toBe(`${id}\n`);
  });

  it('a failing service prints nothing and never throws (a TAB must not print errors)', async () => {
    const service = 'http://127.0.0.1:4999';
    const agent = mockAgent();
    agent
      .get(service)
      .intercept({ method: 'GET', path: '/api/v2/templates?page=1&limit=100' })
      .reply(500, { error: 'INTERNAL', message: 'broken' }, { headers: { 'content-type': 'application/json' } });
    const failed = testDeps({ env: { REPORTCTL_BASE_URL: service, REPORTCTL_API_KEY: 'rctl_test' }, dispatcher: agent });
    await expect(runCompleteIds('template-ids', { names: true }, failed.deps)).resolves.toBeUndefined();
    expect(failed.stdout()).toBe('');
    expect(failed.stderr()).toBe('');
  });
});
