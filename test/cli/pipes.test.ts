// Across verbs: output into a pipe that reads late arrives whole, identical to the same command
// into a file, with the same exit code.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { validateTemplateBody } from '../../src/contract/index.js';
import { inProcessServiceForSuite, startInProcessService } from '../helpers/in-process.js';
import { generalBody } from '../contract/fixtures.js';

/**
 * What scripts see: the built binary writing into a real pipe whose reader only starts reading
 * after a while (`| (sleep 1; cat)`), so the pipe's buffer fills and the writes become
 * asynchronous.
 */
interface Shell {
  code: number;
  stderr: string;
}

function shell(script: string, env: Record<string, string>): Promise<Shell> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const reportctl = (args: string[]) => [process.execPath, BIN, ...args].map(quote).join(' ');

/** The command's stdout through a late reader, and into a file; exit codes of both. */
async function slowPipeAndFile(args: string[], env: Record<string, string>, stdin?: string) {
  const dir = tempDir('reportctl-pipe-');
  const input = stdin === undefined ? '' : ` < ${quote(stdin)}`;
  const piped = join(dir, 'piped');
  const direct = join(dir, 'direct');
  // Both at once: the file is written while the pipe's reader sleeps.
  const [viaPipe, viaFile] = await Promise.all([
    shell(`${reportctl(args)}${input} | (sleep 1.5; cat > ${quote(piped)}); exit \${PIPESTATUS[0]}`, env),
    shell(`${reportctl(args)}${input} > ${quote(direct)}`, env),
  ]);
  return { viaPipe: { ...viaPipe, bytes: readFileSync(piped) }, viaFile: { ...viaFile, bytes: readFileSync(direct) } };
}

describe('output through a slow pipe', () => {
  it('formula check --json --file - delivers over 1 MB, byte for byte, and still exits 1 for an invalid line', async () => {
    const dir = tempDir();
    const formulas = join(dir, 'formulas.txt');
    const bands = ['NIR', 'R', 'G', 'B', 'RE'];
    const lines: string[] = [];
    for (let at = 0; at < 16_000; at++) {
      const a = bands[at % 5]!;
      const b = bands[(at + 1 + (at % 4)) % 5]!;
      lines.push(`(${a} - ${b}) / (${a} + ${b} + eps)`);
    }
    lines.push('nir / R');
    writeFileSync(formulas, lines.join('\n') + '\n');
    const { viaPipe, viaFile } = await slowPipeAndFile(['formula', 'check', '--json', '--file', '-'], {}, formulas);
    expect(viaFile.code).toBe(1);
    expect(viaFile.bytes.length).toBeGreaterThan(1_000_000);
    expect(viaPipe.code, viaPipe.stderr).toBe(1);
    expect(viaPipe.bytes.length).toBe(viaFile.bytes.length);
    expect(viaPipe.bytes.equals(viaFile.bytes)).toBe(true);
    const last = JSON.parse(viaPipe.bytes.toString('utf8').trimEnd().split('\n').at(-1)!) as { formula: string; valid: boolean };
    expect(last).toMatchObject({ formula: 'nir / R', valid: false });
  });

  describe('against a service with 400 templates', () => {
    const suite = inProcessServiceForSuite();
    let env: Record<string, string>;
    beforeAll(async () => {
      const { server } = suite;
      const account = await server.newAccount({ templateLimit: 1000 });
      env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey };
      // Stored as the API stores a POST (checked once, defaults filled in), without 400 requests.
      const checked = validateTemplateBody(generalBody(), server.running.store.catalogs.get());
      if (!checked.success) throw new Error(JSON.stringify(checked.issues));
      for (let at = 0; at < 400; at++) {
        server.running.store.templates.create(account.accountId, account.userId, { ...checked.template, name: `Lot ${at} — stand count, north field `.padEnd(190, '.') });
      }
    });

    it('templates list --all --json is whole, valid JSON, identical to a file', async () => {
      const { viaPipe, viaFile } = await slowPipeAndFile(['templates', 'list', '--all', '--json'], env);
      expect(viaPipe.code, viaPipe.stderr).toBe(0);
      expect(viaPipe.bytes.length).toBeGreaterThan(65_536 * 2);
      expect(viaPipe.bytes.equals(viaFile.bytes)).toBe(true);
      const items = (JSON.parse(viaPipe.bytes.toString('utf8')) as { data: { id: string }[] }).data;
      expect(items).toHaveLength(400);
      expect(new Set(items.map((item) => item.id)).size).toBe(400);
    });

    it('the tab-separated templates list --all is whole, one row per template, identical to a file', async () => {
      const { viaPipe, viaFile } = await slowPipeAndFile(['templates', 'list', '--all', '--wide'], env);
      expect(viaPipe.code, viaPipe.stderr).toBe(0);
      expect(viaPipe.bytes.equals(viaFile.bytes)).toBe(true);
      expect(viaPipe.bytes.length).toBeGreaterThan(65_536);
      const rows = viaPipe.bytes.toString('utf8').trimEnd().split('\n');
      expect(rows).toHaveLength(400);
      expect(rows.every((row) => /^[0-9a-f-]{36}\t/.test(row))).toBe(true);
    });

    it('templates list --all | head ends quietly', async () => {
      const result = await shell(`${reportctl(['templates', 'list', '--all', '--json'])} | head -c 100 > /dev/null; exit \${PIPESTATUS[0]}`, env);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
    });
  });

  it('queue-runs watch --json on a long run delivers every line up to the final state', async () => {
    const server = await startInProcessService({ simulateStepMs: 30 });
    try {
      const account = await server.newAccount();
      const steps = Array.from({ length: 150 }, (_, at) => ['--step', `lot-${at}-${'north-field-'.repeat(4)}:counting`]).flat();
      const queue = await server.admin<{ id: string }>('queues', 'create', '--account', account.accountId, '--name', 'Long', ...steps);
      const run = await server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id);
      const dir = tempDir();
      const out = join(dir, 'watch.ndjson');
      const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey };
      const args = ['queue-runs', 'watch', run.id, '--json', '--interval', '0.5', '--timeout', '60'];
      // The reader starts once the run is long over, so most lines wait in the writer.
      const watched = await shell(`${reportctl(args)} | (sleep 4; cat > ${quote(out)}); exit \${PIPESTATUS[0]}`, env);
      expect(watched.code, watched.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text.length).toBeGreaterThan(100_000);
      expect(text.endsWith('\n')).toBe(true);
      const runs = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; status: string; steps: { status: string }[] });
      expect(runs.every((seen) => seen.id === run.id && seen.steps.length === 150)).toBe(true);
      expect(runs.at(-1)!.status).toBe('completed');
      expect(runs.at(-1)!.steps.every((step) => step.status === 'completed')).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
