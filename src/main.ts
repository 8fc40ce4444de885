// The only module that touches `process`: argv and streams in, exit code out.
import { runCli } from './cli/program.js';
import { systemClock } from './cli/context.js';
import { ExitCode } from './cli/errors.js';

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
// A closed pipe (`reportctl ... | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

void runCli(process.argv.slice(2), {
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
}).then((code) => {
  // Exit now: idle keep-alive sockets or timers must not hold a finished command open.
  // Writes to pipes, files and terminals are synchronous on Linux, so nothing is lost.
  process.exit(code);
});
