import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Env } from '../../../io.js';

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
   * (`npm ci && npm test`), not only the shell. Only off the terminal: a background group
   * cannot read the terminal, and there Ctrl-C reaches the command from the terminal itself.
   */
  ownGroup: boolean;
}

/** Runs `command` through the shell with the streams of this process, until it ends. */
export function runShellCommand(command: string, options: CommandOptions): Promise<CommandEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env: { ...options.env }, detached: options.ownGroup });
    const forward = () => {
      const reason = options.signal.reason;
      const name: NodeJS.Signals = reason === 'SIGINT' || reason === 'SIGTERM' ? reason : 'SIGTERM';
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      // Sharing the terminal, the command got Ctrl-C from it already.
      if (!options.ownGroup && name === 'SIGINT') return;
      try {
        // A negative pid signals the whole group.
        if (options.ownGroup) process.kill(-child.pid, name);
        else child.kill(name);
      } catch {
        // Gone meanwhile: its exit is on its way.
      }
    };
    options.signal.addEventListener('abort', forward, { once: true });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', forward);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      options.signal.removeEventListener('abort', forward);
      if (signal !== null) resolve({ status: 128 + (constants.signals[signal] ?? 0), signal });
      else resolve({ status: code ?? 1 });
    });
  });
}
