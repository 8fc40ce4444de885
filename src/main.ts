// The only module that touches `process`: argv and streams in, exit code out.
import { reportError, runCli, wantsJsonErrors } from './cli/program.js';
import { systemClock } from './cli/context.js';
import { systemDeps } from './cli/system-deps.js';
import { ExitCode } from './cli/errors.js';

/** 128 + SIGPIPE: stdout was closed before everything was written to it. */
const CLOSED_PIPE = 141;

/** Runs the command on the command line, and ends the process with its exit code. */
export function main(): void {
  const interrupt = new AbortController();
  let interrupts = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      interrupts += 1;
      // A second Ctrl-C means "now": do not wait for a clean shutdown.
      if (interrupts > 1) process.exit(ExitCode.interrupted);
      interrupt.abort(signal);
    });
  }
  let finished = false;
  // A closed pipe (`reportctl ... | head`) is not an error worth a stack trace. A command that
  // had not finished was cut short: not a success, but 141, the status SIGPIPE would give.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(finished ? (process.exitCode ?? 0) : CLOSED_PIPE);
  });

  const argv = process.argv.slice(2);
  const deps = systemDeps({
    io: {
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
  });
  // Node ends a process whose event loop has nothing left to wait for with code 0, even while
  // the command still waits on work Node does not track (V8's own tasks): a failure, said so,
  // never a silent success with nothing done.
  process.on('beforeExit', () => {
    if (finished) return;
    const stopped = new Error('the command stopped before its work was done (nothing left to wait for)');
    process.exit(reportError(stopped, deps, wantsJsonErrors(argv, deps.env), argv));
  });

  void runCli(argv, deps).then(async (code) => {
    finished = true;
    process.exitCode = code;
    // A pipe takes writes asynchronously once its buffer is full: wait until both streams have
    // handed every byte to the reader, however slow it is.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    // Then end, even if an idle keep-alive socket or a timer would hold a finished command open.
    process.exit(code);
  });
}

/** Resolves once everything written to `stream` so far has left the process (or it closed). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}
