import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = fileURLToPath(new URL('../../bin/reportctl.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  cwd?: string;
}

/** An environment with no colour forcing, no CI prompts surprises and an isolated config dir. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    // CI changes behaviour (no prompts): a test that wants it sets it, so runs under CI match.
    if (key.startsWith('REPORTCTL_') || key === 'FORCE_COLOR' || key === 'NO_COLOR' || key === 'CI') continue;
    env[key] = value;
  }
  env.REPORTCTL_CONFIG_DIR ??= mkdtempSync(join(tmpdir(), 'reportctl-config-'));
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs the built `reportctl` as a child process, the way a user or a script would. */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cleanEnv(options.env),
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A long-running `reportctl` child (e.g. `serve`), with its first stdout line. */
export interface SpawnedCli {
  child: ChildProcess;
  firstLine: string;
  stdout(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: string[], options: CliRunOptions = {}): Promise<SpawnedCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    const timer = setTimeout(() => {
      if (!settled) {
        settled = true;
        child.kill('SIGKILL');
        reject(new Error(`no first line from reportctl ${args.join(' ')}\nstderr: ${stderr}`));
      }
    }, options.timeoutMs ?? 20_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (!settled && newline >= 0) {
        settled = true;
        clearTimeout(timer);
        resolve({
          child,
          firstLine: stdout.slice(0, newline),
          stdout: () => stdout,
          stderr: () => stderr,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`reportctl ${args.join(' ')} exited ${code} before its first line\nstderr: ${stderr}`));
      }
    });
  });
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;]*m/;

/** A folder holding `reportctl`, a script that runs the built CLI: put it first on PATH to run README lines or hooks as written. */
export function reportctlBinDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reportctl-bin-'));
  writeFileSync(join(dir, 'reportctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  return dir;
}
