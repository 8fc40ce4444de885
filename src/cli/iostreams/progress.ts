import type { Writable } from 'node:stream';
import type { Ora } from 'ora';
import { importPackage } from './import-package.js';

/** Resolves after `ms`, or early (without throwing) when `signal` aborts: the command's clock. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Progress for people, on stderr: a spinner on a terminal, nothing otherwise. */
export interface Progress {
  update(text: string): void;
  /** Shows `text` of the time left, once a second, for `ms` (or until the next update or stop), slept on `clock`. */
  countdown(text: (msLeft: number) => string, ms: number, clock: { sleep: Sleep }): void;
  stop(): void;
}

/**
 * The spinner on `stream` when `onTerminal()` says it is one. ora loads when something is
 * first shown, so a command that never shows progress never loads it.
 */
export function spinnerOn(stream: Writable, onTerminal: () => boolean): Progress {
  let spinner: Ora | undefined;
  let loading: Promise<void> | undefined;
  /** What the spinner should say; undefined once stopped. */
  let wanted: string | undefined;
  let counting: AbortController | undefined;
  const quiet = () => counting?.abort();
  const show = (text: string) => {
    if (!onTerminal()) return;
    wanted = text;
    if (spinner !== undefined) return spin(spinner, text);
    loading ??= importPackage('ora')
      .then(({ default: ora }) => {
        spinner = ora({ stream, discardStdin: false });
        if (wanted !== undefined) spin(spinner, wanted);
      })
      // Progress is for the eye only: without it the command still does its work.
      .catch(() => {});
  };
  return {
    update: (text) => {
      quiet();
      show(text);
    },
    countdown: (text, ms, clock) => {
      quiet();
      counting = new AbortController();
      void countDown(text, ms, clock, show, counting.signal);
    },
    stop: () => {
      quiet();
      wanted = undefined;
      if (spinner?.isSpinning) spinner.stop();
    },
  };
}

function spin(spinner: Ora, text: string): void {
  spinner.text = text;
  if (!spinner.isSpinning) spinner.start();
}

/**
 * Shows `text` of the time left each time its whole seconds change, for `ms` in all. Counts
 * the time it slept, not the clock's, so a fake clock that does not move still ends it.
 */
export async function countDown(text: (msLeft: number) => string, ms: number, clock: { sleep: Sleep }, show: (text: string) => void, signal: AbortSignal): Promise<void> {
  for (let left = ms; left > 0 && !signal.aborted; ) {
    show(text(left));
    const step = left - (Math.ceil(left / 1000) - 1) * 1000;
    await clock.sleep(step, signal);
    left -= step;
  }
}
