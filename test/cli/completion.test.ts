import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { startServe, tempDir } from '../helpers/server.js';
import { itWith } from '../helpers/programs.js';

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

  itWith('fish')('fish: completes commands and enum values', () => {
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

  itWith('zsh')('zsh: the script loads and completes through bashcompinit', () => {
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
