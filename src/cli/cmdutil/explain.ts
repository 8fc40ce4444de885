import { ApiResponseError, ListOverrunError, NetworkError, RateLimitedError, UnexpectedResponseError } from '../../client/errors.js';
import type { ValidationIssue } from '../../contract/errors.js';
import { CliError, cliErrorCode, CommandFailed, ExitCode, fileCodesInWords, fileErrorIn, FileError, SilentFailure, type ExitCodeValue } from './errors.js';
import { escapeControls } from '../iostreams/sanitize.js';

/**
 * Any failure, once: what people read on stderr (`lines`) and what a script reads with
 * `--json` (the rest, printed as one JSON line by `failureJson`).
 */
export interface Failure {
  error: string;
  message: string;
  status?: number;
  issues?: readonly ValidationIssue[];
  hints: string[];
  /** One of the CLI's codes, or the status of a command it ran (`CommandFailed`). */
  exitCode: number;
  /** What people read; empty when the command already said it. */
  lines: string[];
}

function failure(error: string, message: string, exitCode: ExitCodeValue, hints: string[] = [], extra: Partial<Failure> = {}): Failure {
  return { error, message, exitCode, hints, lines: [`reportctl: ${message}`, ...hints.map((hint) => `hint: ${hint}`)], ...extra };
}

/**
 * Any error, explained once. Messages, issues and hints may carry the service's text, so every
 * line people read has its control characters made visible.
 */
export function explainError(error: unknown): Failure {
  const failure = describe(error);
  return { ...failure, lines: failure.lines.map(escapeControls) };
}

function describe(error: unknown): Failure {
  if (error instanceof CliError) {
    // Messages that carry a file system's code (`cannot read the folder x: ENOENT`) say it in words.
    const { code, status, issues = [], message = fileCodesInWords(error.message) } = error.details;
    const hints = [...(error.hint ? [error.hint] : []), ...(error.details.hints ?? [])];
    return {
      error: code ?? cliErrorCode[error.exitCode],
      message,
      ...(status !== undefined ? { status } : {}),
      ...(issues.length > 0 ? { issues } : {}),
      exitCode: error instanceof CommandFailed ? error.status : error.exitCode,
      hints,
      // A silent failure was already told to people; only scripts hear of it here.
      lines: error instanceof SilentFailure ? [] : [`reportctl: ${fileCodesInWords(error.message)}`, ...issueLines(issues), ...hints.map((hint) => `hint: ${hint}`)],
    };
  }
  if (error instanceof RateLimitedError) {
    return failure(error.code, error.message, ExitCode.rateLimited, ['try again later, or lower the request rate'], { status: error.status });
  }
  if (error instanceof ApiResponseError) {
    const exitCode = error.status === 401 ? ExitCode.auth : error.status === 404 ? ExitCode.notFound : ExitCode.failed;
    const hints = error.status === 401 ? [keyHint(error.keySource), `${baseUrlOrigin(error)}; if the key is for another service, give its address with --base-url or \`reportctl config set base-url URL\``] : [];
    if (error.missingRoute) hints.push(`no such route of this API there: check --base-url; it is the root of the service, e.g. http://127.0.0.1:4747 (${baseUrlOrigin(error)})`);
    if (error.status < 400) hints.push('if the service has moved and you trust the new address, set it with --base-url');
    return {
      error: error.code,
      message: error.message,
      status: error.status,
      ...(error.issues.length > 0 ? { issues: error.issues } : {}),
      exitCode,
      hints,
      lines: [`reportctl: ${error.status} ${error.code}: ${error.message}`, ...issueLines(error.issues), ...hints.map((hint) => `hint: ${hint}`)],
    };
  }
  if (error instanceof ListOverrunError) {
    const hint = `a list is read only as far as its first page said, and to ${error.caps.items} items and ${error.caps.bytes / 1024 / 1024} MiB at most; try again, and if it happens again the service is broken or not the one you meant: check --base-url / REPORTCTL_BASE_URL`;
    return failure('LIST_OVERRUN', error.message, ExitCode.network, [hint]);
  }
  if (error instanceof NetworkError) {
    return failure(error.timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', error.message, ExitCode.network, [networkHint(error)]);
  }
  if (error instanceof UnexpectedResponseError) return failure('UNEXPECTED_RESPONSE', error.message, ExitCode.failed);
  // Ctrl-C at a prompt: inquirer holds the terminal in raw mode, so no SIGINT reaches the
  // process; the prompt rejects instead. Matched by name so inquirer need not be loaded here.
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
    return failure(cliErrorCode[ExitCode.interrupted], 'cancelled', ExitCode.interrupted);
  }
  const fileError = fileErrorIn(error);
  if (fileError?.path !== undefined) {
    const action = READING_CALLS.has(fileError.syscall ?? '') ? 'read' : 'write';
    return describe(new FileError(fileError.path, fileError, { action, exitCode: ExitCode.failed }));
  }
  const message = error instanceof Error ? error.message : String(error);
  return failure('INTERNAL_ERROR', `unexpected error: ${fileCodesInWords(message)}`, ExitCode.failed);
}

/** System calls that read; a file system failure of any other call was a write. */
const READING_CALLS = new Set(['open', 'read', 'readdir', 'scandir', 'stat', 'lstat', 'access', 'readlink', 'opendir']);

/** The one JSON line a `--json` failure prints on stderr. */
export function failureJson(failure: Failure): string {
  return JSON.stringify({
    error: failure.error,
    message: failure.message,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.issues ? { issues: failure.issues } : {}),
    ...(failure.hints.length > 0 ? { hint: failure.hints.join('\n') } : {}),
    exitCode: failure.exitCode,
  });
}

/**
 * `  margins.top: Too small` for each issue; the body itself is `(body)`. The path is said
 * once, also when the message starts with it (`name: Too small`).
 */
export function issueLines(issues: readonly ValidationIssue[]): string[] {
  return issues.map((issue) => {
    const message = issue.path !== '' && issue.message.startsWith(`${issue.path}: `) ? issue.message.slice(issue.path.length + 2) : issue.message;
    return escapeControls(`  ${issue.path === '' ? '(body)' : issue.path}: ${message}`);
  });
}

/**
 * A refused key is fixed where it came from: a stale REPORTCTL_API_KEY overrides every key
 * `auth login` saves, so logging in again would not help.
 */
export function keyHint(source: string | undefined): string {
  if (source === 'flag') return 'the key came from --api-key';
  if (source === 'env REPORTCTL_API_KEY') {
    return 'the key came from the environment variable REPORTCTL_API_KEY, which overrides the key `reportctl auth login` saves; fix it or `unset REPORTCTL_API_KEY`';
  }
  if (source?.startsWith('profile ')) {
    return `the key came from ${source} in the config file (saved there by \`reportctl auth login\` or \`reportctl config set api-key\`); run \`reportctl auth login\` with a valid key`;
  }
  return 'no key is set: run `reportctl auth login`, or set REPORTCTL_API_KEY';
}

/**
 * Where the base URL a failed request went to came from, as `keyHint` says it for the key:
 * a URL from the default or a stale profile is fixed there, not by retrying.
 */
function baseUrlOrigin(error: { url: string; baseUrlSource?: string | undefined }): string {
  // The request's URL without the API's own path is the base URL it went to.
  const baseUrl = error.url.replace(/\/api\/v\d+(\/.*)?$|\?.*$/, '');
  const source = error.baseUrlSource;
  const from =
    source === 'flag'
      ? '--base-url'
      : source === 'env REPORTCTL_BASE_URL'
        ? 'the environment variable REPORTCTL_BASE_URL'
        : source?.startsWith('profile ')
          ? `${source} (saved by \`reportctl auth login --base-url\` or \`reportctl config set base-url\`)`
          : 'the default, as none is set';
  return `the base URL ${baseUrl} came from ${from}`;
}

/** The hint fits what went wrong: nothing there, a broken connection, or no answer in time. */
function networkHint(error: NetworkError): string {
  if (error.timedOut) return 'the service accepted the request but did not answer; it may be overloaded or stuck';
  if (error.code === 'RESPONSE_TOO_LARGE') return 'no answer of this service is that large: check --base-url / REPORTCTL_BASE_URL';
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    const origin = error.baseUrlSource === undefined ? '' : `; ${baseUrlOrigin(error)}`;
    return `is the service running? check --base-url / REPORTCTL_BASE_URL (\`reportctl serve\` starts a local one)${origin}`;
  }
  if (/SSL|EPROTO|TLS/i.test(`${error.code} ${error.reason}`) && error.url.startsWith('https:')) {
    return `the address answers in plain HTTP, not HTTPS: use ${error.url.replace(/^https:/, 'http:')} (the local \`reportctl serve\` speaks plain HTTP)`;
  }
  return 'the service (or a proxy in between) closed the connection; try again';
}
