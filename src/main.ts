// The process's owner: argv, streams, signals and the exit code. The few other modules that
// read the process (its platform, the proxy variables, a child's group) are listed in docs/development.md.
import { reportError, runCli, wantsJsonErrors } from './cli/program.js';
import { systemClock } from './cli/cmdutil/context.js';
import { systemDeps } from './cli/system-deps.js';
import { ExitCode } from './cli/cmdutil/errors.js';
// The bin's own helper (scripts/build/bin-files.mjs): ends the process as Node 24 needs, caches written first.
import { endProcess as end } from '../bin/code-cache.js';

/** Runs the command on the command line, and ends the process with its exit code. */
export function main(): void {
  const interrupt = new AbortController();
  let interrupts = 0;
  // 128 + the signal's number, as a shell reports a process the signal ended.
  const statusAfter = { SIGINT: ExitCode.interrupted, SIGTERM: 143 } as const;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      interrupts += 1;
      // A second Ctrl-C means "now": do not wait for a clean shutdown.
      if (interrupts > 1) end(statusAfter[signal]);
      interrupt.abort(signal);
    });
  }
  /** The command's exit code once it has one; nothing else in the process (jq-web sets process.exitCode) decides it. */
  let exitCode: number | undefined;
  // A closed pipe (`reportctl ... | head`) is not an error worth a stack trace: the reader has
  // what it wanted. A command that must know its output arrived (`templates pull`) sees the
  // failed write first and sets its exit code before this ends the process.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') setImmediate(() => end(exitCode ?? 0));
  });

  const argv = process.argv.slice(2);
  const deps = systemDeps({
    streams: {
      // Read on first use: creating stdin loads stream and tty machinery most commands never need.
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
    },
    env: process.env,
    clock: systemClock,
    signal: interrupt.signal,
    nodeVersion: process.versions.node,
    atExit: (listener) => {
      process.once('exit', listener);
      return () => process.removeListener('exit', listener);
    },
  });
  // Node ends a process whose event loop has nothing left to wait for with code 0, even while
  // the command still waits on work Node does not track (V8's own tasks): a failure, said so,
  // never a silent success with nothing done.
  process.on('beforeExit', () => {
    if (exitCode !== undefined) return;
    const stopped = new Error('the command stopped before its work was done (nothing left to wait for)');
    end(reportError(stopped, deps, wantsJsonErrors(argv, deps.env), argv));
  });

  void runCli(argv, deps).then(async (code) => {
    exitCode = code;
    process.exitCode = code;
    // A pipe takes writes asynchronously once its buffer is full: wait until both streams have
    // handed every byte to the reader, however slow it is.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    // Then end, even if an idle keep-alive socket or a timer would hold a finished command open.
    end(code);
  });
}

/** Resolves once everything written to `stream` so far has left the process (or it closed). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}
