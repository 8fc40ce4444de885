import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { startServe, tempDir } from '../helpers/server.js';
import { testWith } from '../helpers/programs.js';
import { fakeService, json } from '../helpers/fake-service.js';

const files = { bash: 'completions/reportctl.bash', zsh: 'completions/_reportctl', fish: 'completions/reportctl.fish' } as const;

/** A `reportctl` on PATH (the scripts call it for ids), pointing at the built CLI. */
let binDir: string;
beforeAll(() => {
  binDir = tempDir('reportctl-bin-');
  const wrapper = join(binDir, 'reportctl');
  writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(wrapper, 0o755);
});

function scriptFor(shell: keyof typeof files): string {
  const dir = tempDir();
  const file = join(dir, `completion.${shell}`);
  writeFileSync(file, execFileSync(process.execPath, [BIN, 'completion', shell], { encoding: 'utf8' }));
  return file;
}

/** What bash would offer for `line` (completing its last word). */
function bashComplete(line: string, env: Record<string, string> = {}): string[] {
  const script = scriptFor('bash');
  const program = `source ${JSON.stringify(script)}
COMP_LINE=${JSON.stringify(line)}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_reportctl
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    encoding: 'utf8',
    env: { ...process.env, ...env, PATH: `${binDir}:${process.env.PATH}` },
  });
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

describe('completion scripts', () => {
  it.each(Object.entries(files))('completions/%s is up to date with the command tree', async (shell, file) => {
    const result = await runCli(['completion', shell]);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8'), `run: npm run build && npm run completions`).toBe(result.stdout);
  });

  it('rejects an unknown shell with exit 2', async () => {
    const result = await runCli(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bash, zsh, fish/);
  });

  it('bash: completes commands, subcommands, flags and enum values', () => {
    expect(bashComplete('reportctl tem')).toEqual(['templates']);
    expect(bashComplete('reportctl templates ')).toEqual(expect.arrayContaining(['list', 'get', 'create', 'delete']));
    expect(bashComplete('reportctl templates list --analysis-type ')).toEqual(['counting', 'replanting', 'path']);
    expect(bashComplete('reportctl templates list --report-c')).toEqual(['--report-category']);
    expect(bashComplete('reportctl --json templates list --report-category v')).toEqual(['vegetation_index']);
    expect(bashComplete('reportctl completion ')).toEqual([]);
  });

  it('bash: completes queue-run statuses', () => {
    const statuses = bashComplete('reportctl queue-runs list --status ');
    expect(statuses).toEqual(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']);
  });

  testWith('fish', 'fish: completes commands and enum values', () => {
    const script = scriptFor('fish');
    const complete = (line: string) =>
      spawnSync('fish', ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${binDir}:${process.env.PATH}` },
      })
        .stdout.split('\n')
        .filter(Boolean)
        .map((row) => row.split('\t')[0]);
    expect(complete('reportctl tem')).toEqual(['templates']);
    expect(complete('reportctl queue-runs list --status ')).toEqual(
      expect.arrayContaining(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']),
    );
    expect(complete('reportctl templates list --analysis-type ')).toEqual(expect.arrayContaining(['counting', 'replanting', 'path']));
  });

  testWith('zsh', 'zsh: the script loads and completes through bashcompinit', () => {
    const script = scriptFor('zsh');
    const program = `autoload -U compinit && compinit -u
source ${script}
# bashcompinit calls bash completers with zero-based arrays, as bash has them.
setopt ksharrays
COMP_WORDS=(reportctl queue-runs list --status "")
COMP_CWORD=4
_reportctl
print -l -- "\${COMPREPLY[@]}"`;
    const result = spawnSync('zsh', ['-f', '-c', program], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']);
  });

  it('bash: completes template and run ids from the service, and stays silent when it cannot', async () => {
    const server = await startServe();
    try {
      const account = await server.newAccount();
      const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey, REPORTCTL_CONFIG_DIR: tempDir() };
      const created = await runCli(['templates', 'create', '--from-preset', 'preset-counting-summary', '--name', 'Completion check'], { env });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      expect(bashComplete(`reportctl templates get ${id.slice(0, 4)}`, env)).toEqual([id]);
      const queue = await server.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'q', '--step', 'lot-1:counting');
      const run = await server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id);
      expect(bashComplete('reportctl queue-runs watch ', env)).toEqual([run.id]);
      expect(bashComplete('reportctl templates create --from-preset preset-counting-summ', env)).toEqual(['preset-counting-summary']);
      // A service that is not there: no candidates, no noise, no delay worth noticing.
      expect(bashComplete('reportctl templates get ', { ...env, REPORTCTL_BASE_URL: 'http://127.0.0.1:9' })).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

/**
 * What `shell` offers for `line` (completing its last word), with `path` first on PATH. Not
 * spawnSync: a fake service in this process must answer while the shell runs.
 */
async function completeIn(shell: keyof typeof files, line: string, env: Record<string, string>, path: string): Promise<string[]> {
  const script = scriptFor(shell);
  const words = `COMP_LINE=${JSON.stringify(line)}`;
  const split = shell === 'zsh' ? 'COMP_WORDS=(${=COMP_LINE})' : 'read -ra COMP_WORDS <<< "$COMP_LINE"';
  const program =
    shell === 'fish'
      ? `source ${script}; complete -C ${JSON.stringify(line)}`
      : `${shell === 'zsh' ? 'autoload -U compinit && compinit -u\nsetopt ksharrays\n' : ''}source ${JSON.stringify(script)}
${words}
${split}
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_reportctl
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const args = { bash: ['--norc', '--noprofile', '-c'], zsh: ['-f', '-c'], fish: ['--no-config', '-c'] }[shell];
  const child = spawn(shell, [...args, program], { env: { ...process.env, ...env, PATH: `${path}:${process.env.PATH}` } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(status, stderr).toBe(0);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((row) => row.split('\t')[0]!);
}

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
      const template = (id: string) => ({ id, userId: 'u', name: 'n', analysisType: 'counting', reportType: 'stand_count', reportTypeId: 'rt', reportCategory: 'general', selectedStatistics: [], createdAt: stamp, updatedAt: stamp });
      const run = (id: string) => ({ id, name: 'n', queueId: 'q', status: 'pending', estimatedHa: 1, steps: [], createdAt: stamp, startedAt: null, finishedAt: null });
      const preset = (id: string) => ({ id, name: 'n', description: 'd', analysisType: 'counting', reportCategory: 'general', seedPayload: {} });
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
      for (const [line, good] of cases) {
        expect(await completeIn(shell, line, env, binDir), line).toEqual([good]);
      }
      expect(service.requests.length).toBe(cases.length);
      expectNoMarks();
    }, 120_000);

    // `__complete` already drops such ids; this proves the script does not rely on it (an
    // older reportctl on PATH, or a compromised one, prints them straight to the script).
    inShell(shell, `${shell}: the script itself never evaluates what \`reportctl __complete\` prints`, async () => {
      const stubDir = tempDir('reportctl-stub-');
      const stub = join(stubDir, 'reportctl');
      writeFileSync(stub, `#!/bin/sh\ncat <<'LINES'\n${[...HOSTILE.filter((id) => !id.includes('\n')), 'tpl-3c44560e', 'tpl-ffff'].join('\n')}\nLINES\n`);
      chmodSync(stub, 0o755);
      expect(await completeIn(shell, 'reportctl templates get tpl-3', {}, stubDir)).toEqual(['tpl-3c44560e']);
      expect((await completeIn(shell, 'reportctl templates get ', {}, stubDir)).sort()).toEqual(['tpl-3c44560e', 'tpl-ffff']);
      expect((await completeIn(shell, 'reportctl templates create --from-preset ', {}, stubDir)).sort()).toEqual(['tpl-3c44560e', 'tpl-ffff']);
      expectNoMarks();
      expect(existsSync(marks)).toBe(true);
    }, 60_000);
  }
});
