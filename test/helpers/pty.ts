import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, cleanEnv } from './cli.js';

const PROXY = fileURLToPath(new URL('./pty-proxy.py', import.meta.url));

/** Keys as a terminal sends them. */
export const Keys = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  space: ' ',
  backspace: '\u007f',
  ctrlC: '\u0003',
} as const;

export interface PtyCli {
  /**
   * Resolves once `pattern` appears in the output after the previous match (escape
   * sequences stripped), and moves past it; rejects with the whole transcript on timeout.
   */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Types `keys`, one key at a time as a person would (a prompt re-renders between keys). */
  type(...keys: string[]): Promise<void>;
  /** Everything the terminal showed so far, escape sequences stripped. */
  transcript(): string;
  /**
   * What the terminal shows now, lines as on screen with trailing blanks removed: the raw
   * output replayed in a tmux pane of the same size, so erased lines are gone. Needs tmux.
   */
  screen(): string;
  exited: Promise<{ code: number | null }>;
  kill(): void;
}

// CSI (colours, cursor moves, erases, private modes) and OSC sequences; then lone CRs.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\r/g;

/**
 * The built `reportctl` in a pseudo-terminal (through python3's pty module), so stdin,
 * stdout and stderr are all a TTY and prompts run exactly as for a person.
 */
export function spawnCliInPty(args: string[], options: { env?: Record<string, string | undefined> } = {}): PtyCli {
  const child = spawn('python3', [PROXY, process.execPath, BIN, ...args], {
    env: cleanEnv({ TERM: 'xterm-256color', NO_COLOR: '1', ...options.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let cursor = 0;
  let waiter: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    waiter?.();
  });
  let proxyErrors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (proxyErrors += chunk));
  const exited = new Promise<{ code: number | null }>((resolve) => child.on('close', (code) => resolve({ code })));
  const plain = () => raw.replace(ESCAPES, '');

  const waitFor = (pattern: string | RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const regex = typeof pattern === 'string' ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : pattern;
      const check = () => {
        const text = plain();
        const match = regex.exec(text.slice(cursor));
        if (!match) return false;
        cursor += match.index + match[0].length;
        clearTimeout(timer);
        waiter = undefined;
        resolve(match);
        return true;
      };
      const timer = setTimeout(() => {
        waiter = undefined;
        reject(new Error(`timed out waiting for ${regex}\n--- terminal ---\n${plain()}\n--- proxy stderr ---\n${proxyErrors}`));
      }, timeoutMs);
      if (!check()) waiter = () => void check();
      void exited.then(() => {
        if (waiter && !check()) {
          clearTimeout(timer);
          waiter = undefined;
          reject(new Error(`exited while waiting for ${regex}\n--- terminal ---\n${plain()}\n--- proxy stderr ---\n${proxyErrors}`));
        }
      });
    });

  const type = async (...keys: string[]) => {
    for (const key of keys) {
      child.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  };

  return {
    waitFor,
    type,
    transcript: plain,
    screen: () => renderInTmux(raw, Number(options.env?.PTY_COLUMNS ?? 160)),
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** `output` as a terminal of pty-proxy.py's size shows it, through a tmux server of its own. */
function renderInTmux(output: string, columns: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'reportctl-screen-'));
  const tmux = (...args: string[]) => {
    const result = spawnSync('tmux', ['-S', join(folder, 'socket'), '-f', '/dev/null', ...args], { encoding: 'utf8', timeout: 20_000 });
    if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr || String(result.error)}`);
    return result.stdout;
  };
  try {
    writeFileSync(join(folder, 'output'), output);
    // `stty raw`: the output already went through a terminal's line discipline once.
    tmux('new-session', '-d', '-x', String(columns), '-y', '60', `stty raw -echo; cat '${join(folder, 'output')}'; tmux wait-for -S shown; sleep 60`);
    tmux('wait-for', 'shown');
    return tmux('capture-pane', '-p')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trimEnd();
  } finally {
    spawnSync('tmux', ['-S', join(folder, 'socket'), 'kill-server']);
    rmSync(folder, { recursive: true, force: true });
  }
}
