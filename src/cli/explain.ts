import { ApiResponseError, NetworkError, RateLimitedError, UnexpectedResponseError } from '../client/errors.js';
import { CliError, ExitCode, type ExitCodeValue } from './errors.js';
import type { Env } from './io.js';
import { visible } from './sanitize.js';

/**
 * Any error as the lines a person reads on stderr, and the exit code it means. Messages,
 * issues and hints may carry the service's text, so every line has its control characters
 * made visible.
 */
export function explainError(error: unknown, env: Env): { lines: string[]; exitCode: ExitCodeValue } {
  const explained = explain(error, env);
  return { lines: explained.lines.map(visible), exitCode: explained.exitCode };
}

function explain(error: unknown, _env: Env): { lines: string[]; exitCode: ExitCodeValue } {
  if (error instanceof CliError) {
    return { lines: [`reportctl: ${error.message}`, ...(error.hint ? [`hint: ${error.hint}`] : [])], exitCode: error.exitCode };
  }
  if (error instanceof RateLimitedError) {
    return { lines: [`reportctl: ${error.message}`, 'hint: try again later, or lower the request rate'], exitCode: ExitCode.rateLimited };
  }
  if (error instanceof ApiResponseError) {
    const lines = [`reportctl: ${error.status} ${error.code}: ${error.message}`];
    for (const issue of error.issues) lines.push(`  ${issue.path === '' ? '(body)' : issue.path}: ${issue.message}`);
    if (error.status === 401) {
      lines.push('hint: set a key with `reportctl auth login`, REPORTCTL_API_KEY, or --api-key');
      return { lines, exitCode: ExitCode.auth };
    }
    if (error.status === 404) return { lines, exitCode: ExitCode.notFound };
    if (error.status < 400) lines.push('hint: if the service has moved and you trust the new address, set it with --base-url');
    return { lines, exitCode: ExitCode.failed };
  }
  if (error instanceof NetworkError) return { lines: [`reportctl: ${error.message}`, networkHint(error)], exitCode: ExitCode.network };
  if (error instanceof UnexpectedResponseError) return { lines: [`reportctl: ${error.message}`], exitCode: ExitCode.failed };
  // Ctrl-C at a prompt: inquirer holds the terminal in raw mode, so no SIGINT reaches the
  // process; the prompt rejects instead. Matched by name so inquirer need not be loaded here.
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
    return { lines: [], exitCode: ExitCode.interrupted };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [`reportctl: unexpected error: ${message}`], exitCode: ExitCode.failed };
}

/** The hint fits what went wrong: nothing there, a broken connection, or no answer in time. */
function networkHint(error: NetworkError): string {
  if (error.timedOut) return 'hint: the service accepted the request but did not answer; it may be overloaded or stuck';
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return 'hint: is the service running? check --base-url / REPORTCTL_BASE_URL (`reportctl serve` starts a local one)';
  }
  return 'hint: the service (or a proxy in between) closed the connection; try again';
}
