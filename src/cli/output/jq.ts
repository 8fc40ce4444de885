import { Writable } from 'node:stream';
import { CliError, ExitCode, SilentFailure, UsageError } from '../cmdutil/errors.js';
import type { Env } from '../iostreams/io.js';
import { writeData, type IOStreams } from '../iostreams/io.js';
import { escapeControls, jsonForTerminal } from '../iostreams/sanitize.js';
import type { JqEngine, JqRun } from './jq-engine.js';
import { indentJson } from './json-indent.js';

/**
 * `--jq EXPR`: what `--json` prints goes through jq before it reaches stdout. Every JSON text
 * a command prints for scripts is one line (compact when stdout is not a terminal, and the
 * command sees a pipe here), so jq runs once per line: once over a list, once over `--all`'s
 * merged list, once per event of a watch stream.
 */

/** The expression after `--jq` (or in `--jq=EXPR`), before any `--`; undefined without one. */
export function jqExpression(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  let expression: string | undefined;
  words.forEach((word, at) => {
    if (word === '--jq' && at + 1 < words.length) expression = words[at + 1];
    else if (word.startsWith('--jq=')) expression = word.slice('--jq='.length);
  });
  return expression;
}

/** argv with `--json` added beside `--jq`: the command prints what jq reads. */
export function withJson(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return end < 0 ? [...argv, '--json'] : [...argv.slice(0, end), '--json', ...argv.slice(end)];
}

/** REPORTCTL_JQ_TIMEOUT_MS: how long one jq run may take; undefined for the default. */
export function jqTimeLimit(env: Env): number | undefined {
  const text = env.REPORTCTL_JQ_TIMEOUT_MS;
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1) throw new UsageError(`REPORTCTL_JQ_TIMEOUT_MS must be a whole number of milliseconds, got \`${text}\``);
  return ms;
}

/** jq's own message, naming its input as jq does when it reads stdin. */
function jqMessage(run: JqRun): string {
  return run.stderr.trim().replace(/\(at inputString:/g, '(at <stdin>:');
}

/** A failure jq reported while the command's output went through it (jq's message, exit 1). */
export class JqFailure extends CliError {
  constructor(message: string) {
    super(message, ExitCode.failed, undefined, { code: 'JQ_ERROR' });
    this.name = 'JqFailure';
  }
}

/**
 * jq's message when it cannot compile the expression, checked before the command runs: with
 * no input, jq compiles the program and runs it on nothing.
 */
export async function jqCompileError(engine: JqEngine, expression: string): Promise<string | undefined> {
  const run = await engine.run('', expression);
  if (run.interrupted) throw new SilentFailure(ExitCode.interrupted, 'interrupted');
  return run.status === 3 ? jqMessage(run) : undefined;
}

/**
 * What jq printed, for the reader: jq prints one compact JSON text per line (its compact
 * printer is the one that holds the deepest values jq reads); strings come out raw (as
 * `gh --jq` prints them), other values one per line when piped and indented on a terminal,
 * where control characters are made visible, as everywhere else.
 */
export function shownOutput(output: string, terminal: boolean): string {
  const shown: string[] = [];
  for (const line of output.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('"')) {
      const text = JSON.parse(line) as string;
      shown.push(terminal ? text.split('\n').map(escapeControls).join('\n') : text);
    } else {
      shown.push(terminal ? jsonForTerminal(indentJson(line)) : line);
    }
  }
  return shown.length === 0 ? '' : `${shown.join('\n')}\n`;
}

/**
 * The stdout a command writes to under `--jq`: each line it writes goes through jq, and jq's
 * output goes to the real stdout.
 */
export class JqOutput extends Writable {
  readonly isTTY = false;
  /** The first jq failure (or Ctrl-C during a run); jq goes on with the next line, as jq goes on with the next input. */
  failure?: CliError;
  /** What came since the last newline, kept in pieces: a long line in many writes is joined once. */
  private pending: string[] = [];

  constructor(
    private readonly engine: JqEngine,
    private readonly expression: string,
    private readonly io: IOStreams,
    /** Says what jq reported, as people or scripts read failures. */
    private readonly report: (failure: JqFailure) => void,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (!text.includes('\n')) {
      this.pending.push(text);
      return done();
    }
    const lines = [...this.pending, text].join('').split('\n');
    this.pending = [lines.pop()!];
    this.filterLines(lines).then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    const rest = this.pending.join('');
    this.pending = [];
    this.filterLines(rest.trim() === '' ? [] : [rest]).then(() => done(), done);
  }

  private async filterLines(lines: readonly string[]): Promise<void> {
    const terminal = this.io.isStdoutTTY();
    for (const line of lines) {
      // After Ctrl-C, the command is ending: nothing more goes through jq.
      if (line.trim() === '' || this.failure?.exitCode === ExitCode.interrupted) continue;
      const run = await this.engine.run(line, this.expression);
      if (run.interrupted) {
        this.failure = new SilentFailure(ExitCode.interrupted, 'interrupted');
        return;
      }
      // jq's debug and stderr output carries the service's data: escaped, as every message is.
      if (run.stderr !== '' && run.status === 0) this.io.stderr.write(run.stderr.split('\n').map(escapeControls).join('\n'));
      const shown = shownOutput(run.output, terminal);
      if (shown !== '') await writeData(this.io.stdout, shown);
      if (run.status !== 0) {
        const failure = new JqFailure(jqMessage(run));
        this.failure ??= failure;
        this.report(failure);
      }
    }
  }

  /** Once the command is done: whatever it wrote without a final newline goes through jq too. */
  finish(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.once('error', reject);
      this.end(() => resolve());
    });
  }
}
