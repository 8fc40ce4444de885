import type { ValidationIssue } from '../../contract/errors.js';
import { NotUtf8Error } from '../../encoding/utf8.js';

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
  /** parity: what a run keeps passed its bound; its templates were still deleted. */
  answersTooLarge: 9,
  // Outcomes that are not failures, each a code no failure uses (as terraform keeps 1 for
  // errors and 2 for changes), so a script can tell them from any error.
  /** templates diff: the service's templates differ from the folder. */
  differences: 10,
  /** templates pull: files with local edits were kept. */
  localEditsKept: 11,
  /** templates apply --plan: the plan holds a change nobody reviewed; nothing was written. */
  stalePlan: 12,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, for `help reference` and the man pages. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [status: string, meaning: string]> = [
  [String(ExitCode.ok), 'success (an empty list too)'],
  [String(ExitCode.failed), 'the operation failed (an API error, an invalid formula or template, a failed or cancelled run with --exit-status, a serve that cannot start, a jq error)'],
  [String(ExitCode.usage), 'usage error: a bad flag or argument, an answer needed that cannot be prompted for, a --jq expression jq cannot compile'],
  [String(ExitCode.auth), 'authentication (401)'],
  [String(ExitCode.notFound), 'not found (404)'],
  [String(ExitCode.rateLimited), 'still rate limited after the retries'],
  [String(ExitCode.network), 'network error or time-out'],
  [String(ExitCode.watchTimeout), 'queue-runs watch reached --timeout with the run still going'],
  [String(ExitCode.answersTooLarge), "parity: the service's answers passed what a run keeps (32 MiB); its templates were still deleted"],
  [String(ExitCode.differences), "templates diff: the service's templates differ from the folder"],
  [String(ExitCode.localEditsKept), 'templates pull: files with local edits were kept, the rest written'],
  [String(ExitCode.stalePlan), 'templates apply --plan: the plan is stale (a change it does not hold); nothing was written'],
  [String(ExitCode.interrupted), 'interrupted (Ctrl-C)'],
  ['any', 'serve --exec: the status of the command it ran (128+N when signal N ended it)'],
];

/**
 * The CLI's own error codes for `--json` failures, one per exit code; an error the service
 * answered keeps the service's code instead.
 */
export const cliErrorCode: Record<ExitCodeValue, string> = {
  [ExitCode.ok]: 'OK',
  [ExitCode.failed]: 'FAILED',
  [ExitCode.usage]: 'USAGE',
  [ExitCode.auth]: 'AUTH_REQUIRED',
  [ExitCode.notFound]: 'NOT_FOUND',
  [ExitCode.rateLimited]: 'RATE_LIMITED',
  [ExitCode.network]: 'NETWORK_ERROR',
  [ExitCode.watchTimeout]: 'WATCH_TIMEOUT',
  [ExitCode.answersTooLarge]: 'ANSWERS_TOO_LARGE',
  [ExitCode.differences]: 'DIFFERENCES',
  [ExitCode.localEditsKept]: 'LOCAL_EDITS',
  [ExitCode.stalePlan]: 'STALE_PLAN',
  [ExitCode.interrupted]: 'INTERRUPTED',
};

/** What a failure carries besides its message, for people (hints) and for scripts (the rest). */
export interface FailureDetails {
  /** A stable code; by default the one of the exit code (`cliErrorCode`). */
  code?: string;
  /** The HTTP status, when the service answered. */
  status?: number;
  issues?: readonly ValidationIssue[];
  /** Further hints after the first. */
  hints?: readonly string[];
  /** What scripts read when it differs from what people read (the service's own message). */
  message?: string;
}

/** An error the CLI explains in one message (plus optional hints) and maps to an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly hint?: string,
    readonly details: FailureDetails = {},
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

/**
 * A command reportctl ran for the user (`serve --exec`) failed: reportctl exits with the
 * command's own status, whatever it means to that command.
 */
export class CommandFailed extends CliError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message, ExitCode.failed, undefined, { code: 'COMMAND_FAILED' });
    this.name = 'CommandFailed';
  }
}

/**
 * The operation ran and failed, and the command already told people what went wrong (a
 * verdict on stdout, issues on stderr). Only `--json` failures print it: its code and message.
 */
export class SilentFailure extends CliError {
  constructor(exitCode: ExitCodeValue = ExitCode.failed, message = '', details: FailureDetails = {}) {
    super(message, exitCode, undefined, details);
    this.name = 'SilentFailure';
  }
}

/** What the file system's error codes mean, in words (`no such file`, not `ENOENT`). */
const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory, not a file',
  ENOTDIR: 'not a directory (or a part of the path is not one)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  EEXIST: 'it already exists',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EBUSY: 'it is busy',
  ENXIO: 'no such device',
};

/** A file system failure's code in words; undefined for a code that is not one of them. */
export function fileProblem(code: string | undefined): string | undefined {
  return code === undefined ? undefined : FILE_PROBLEMS[code];
}

/** The file system failure an error is, or was caused by (a driver's error wraps Node's). */
export function fileErrorIn(error: unknown): (NodeJS.ErrnoException & { code: string }) | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (fileProblem(code) !== undefined) return cause as NodeJS.ErrnoException & { code: string };
  }
  return undefined;
}

/** Node's words for a failure (`ENOENT: no such file or directory, open '/x'`), or a bare code after a colon. */
const NODE_FILE_ERROR = /\b(E[A-Z]+): [^,]*, [a-z]+(?: '[^']*')+|(?<=: )(E[A-Z]+)\b/g;

/** A message with the file system's codes said in words; other text stays as it is. */
export function fileCodesInWords(message: string): string {
  return message.replace(NODE_FILE_ERROR, (whole, long?: string, bare?: string) => fileProblem(long ?? bare) ?? whole);
}

/** `nope.txt (--file)`: a path with the flag it came from. */
const withFlag = (path: string, flag: string | undefined) => (flag && flag !== path ? `${path} (${flag})` : path);

/**
 * A file that could not be read or written, naming the flag it was given with:
 * `cannot read nope.txt (--file): no such file`. Exit 2 for a file the user named.
 */
export class FileError extends CliError {
  constructor(
    readonly path: string,
    cause: NodeJS.ErrnoException,
    options: { flag?: string; action?: 'read' | 'write' | 'open'; exitCode?: ExitCodeValue } = {},
  ) {
    super(`cannot ${options.action ?? 'read'} ${withFlag(path, options.flag)}: ${fileProblem(cause.code) ?? cause.message}`, options.exitCode ?? ExitCode.usage);
    this.name = 'FileError';
  }
}

/** What to do with a file that is not UTF-8. */
export const NOT_UTF8_HINT = 'save it as UTF-8 (from Latin-1: `iconv -f LATIN1 -t UTF-8`)';

/**
 * `error` as a FileError when the file system refused `path`, as a usage error naming `path`
 * when its bytes are not UTF-8, else unchanged.
 */
export function asFileError(error: unknown, path: string, options: ConstructorParameters<typeof FileError>[2] = {}): unknown {
  if (error instanceof NotUtf8Error) {
    return new CliError(`cannot read ${withFlag(path, options.flag)}: ${error.message}`, ExitCode.usage, NOT_UTF8_HINT);
  }
  const cause = fileErrorIn(error);
  return cause ? new FileError(path, cause, options) : error;
}
