/** Exit codes of the CLI (see README "Exit codes"). Only src/main.ts turns them into a process exit. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  network: 6,
  watchTimeout: 8,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI explains in one message (plus an optional hint) and maps to an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A bad flag or argument, or an answer that cannot be prompted for. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
    this.name = 'UsageError';
  }
}

/** The operation ran and failed; the command already printed what went wrong. */
export class SilentFailure extends CliError {
  constructor(exitCode: ExitCodeValue = ExitCode.failed) {
    super('', exitCode);
    this.name = 'SilentFailure';
  }
}
