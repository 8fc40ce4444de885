import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Env } from '../../../iostreams/io.js';

/** How the command ended: its exit status, as a shell reports it (128 + n after signal n). */
export interface CommandEnd {
  status: number;
  /** The signal that ended it, if one did. */
  signal?: NodeJS.Signals;
}

export interface CommandOptions {
  env: Env;
  /** Aborted on SIGINT/SIGTERM; its reason (the signal's name) is passed on to the command. */
  signal: AbortSignal;
  /**
   * Runs the command in a process group of its own, so a signal reaches everything it started
   * (`npm ci && npm test`), not only the shell, and what it left running in the background
   * can be ended with it. Only off the terminal: a background group cannot read the terminal,
   * and there Ctrl-C reaches the command from the terminal itself.
   */
  ownGroup: boolean;
  /** The injected clock's sleep, for the grace period (resolves early when `signal` aborts). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Runs `listener` as the process exits, until the returned function is called (CliDeps.atExit). */
  atExit?: (listener: () => void) => () => void;
}

/** How long the command's processes have between SIGTERM and SIGKILL. */
export const GRACE_MS = 3000;
const POLL_MS = 50;

/** Signals the process group led by `group`; false when no process is left in it. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    // A negative pid signals the whole group.
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/** What the shell left running in its group (`daemon &`) gets SIGTERM, then SIGKILL after the grace period. */
async function endGroup(group: number, sleep: CommandOptions['sleep']): Promise<void> {
  if (!signalGroup(group, 'SIGTERM')) return;
  for (let waited = 0; waited < GRACE_MS; waited += POLL_MS) {
    await sleep(POLL_MS);
    if (!signalGroup(group, 0)) return;
  }
  signalGroup(group, 'SIGKILL');
}

/**
 * Runs `command` through the shell with the streams of this process, until it ends. With
 * `ownGroup`, nothing of its process group outlives it: not a daemon it forked, not a command
 * that ignores the signal passed on, not even when serve leaves at once (a second signal).
 */
export function runShellCommand(command: string, options: CommandOptions): Promise<CommandEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env: { ...options.env }, detached: options.ownGroup });
    const group = options.ownGroup ? child.pid : undefined;
    // An exit at once (a second signal) runs only synchronous listeners: SIGKILL, no grace.
    const killNow = () => {
      if (group !== undefined) signalGroup(group, 'SIGKILL');
    };
    const forget = group !== undefined && options.atExit ? options.atExit(killNow) : () => {};
    const ended = new AbortController();
    const forward = () => {
      forwardSignal(child, options);
      // A command that does not end on it is killed once the grace period is over.
      void options.sleep(GRACE_MS, ended.signal).then(() => {
        if (ended.signal.aborted) return;
        if (group !== undefined) signalGroup(group, 'SIGKILL');
        else child.kill('SIGKILL');
      });
    };
    options.signal.addEventListener('abort', forward, { once: true });
    const settle = () => {
      options.signal.removeEventListener('abort', forward);
      ended.abort();
    };
    child.on('error', (error) => {
      settle();
      forget();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      settle();
      const end: CommandEnd = signal !== null ? { status: statusAfterSignal(signal), signal } : { status: code ?? 1 };
      if (group === undefined) return resolve(end);
      void endGroup(group, options.sleep).finally(() => {
        forget();
        resolve(end);
      });
    });
  });
}

/** Passes serve's SIGINT or SIGTERM on to the command. */
function forwardSignal(child: ChildProcess, options: CommandOptions): void {
  const reason = options.signal.reason;
  const name: NodeJS.Signals = reason === 'SIGINT' || reason === 'SIGTERM' ? reason : 'SIGTERM';
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // Sharing the terminal, the command got Ctrl-C from it already.
  if (!options.ownGroup && name === 'SIGINT') return;
  if (options.ownGroup) signalGroup(child.pid, name);
  else child.kill(name);
}

/** The exit status a shell reports for a process ended by `signal`: 128 + its number. */
export function statusAfterSignal(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
