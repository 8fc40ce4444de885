import type { Readable, Writable } from 'node:stream';
import { spinnerOn, type Progress } from './progress.js';
import { loadStyle, type Style } from './style.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The three streams as the process (or a test) has them. */
export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

export type StreamName = 'stdout' | 'stderr';

/**
 * The streams and what is known about them: whether each is a terminal, whether colour is on,
 * whether someone can answer a prompt, and the one progress indicator. Built once per command
 * by systemDeps (from the process's streams and environment in main.ts, from captured ones in
 * tests) and injected. Verbs ask here and never read the environment or isTTY themselves.
 */
export class IOStreams {
  /** Progress for people on stderr: a spinner on a terminal, nothing otherwise. */
  readonly progress: Progress;

  constructor(
    private readonly streams: Streams,
    private readonly env: Env,
  ) {
    // A terminal 0 columns wide (a pty nobody sized, as `script` makes without a terminal)
    // would have ora clear an endless number of lines: no spinner there.
    this.progress = spinnerOn(streams.stderr, () => this.isStderrTTY() && this.stderr.columns !== 0);
  }

  // Read on first use: main.ts gives stdin as a getter, since creating it loads stream and
  // tty machinery most commands never need.
  get stdin(): Streams['stdin'] {
    return this.streams.stdin;
  }

  get stdout(): Streams['stdout'] {
    return this.streams.stdout;
  }

  get stderr(): Streams['stderr'] {
    return this.streams.stderr;
  }

  isStdinTTY(): boolean {
    return this.stdin.isTTY === true;
  }

  isStdoutTTY(): boolean {
    return this.stdout.isTTY === true;
  }

  isStderrTTY(): boolean {
    return this.stderr.isTTY === true;
  }

  /** Whether output can be redrawn in place: a terminal that moves its cursor (TERM=dumb does not). */
  canRedraw(): boolean {
    return this.isStdoutTTY() && this.env.TERM !== 'dumb';
  }

  terminalWidth(): number {
    const columns = this.stdout.columns;
    return columns && columns > 20 ? columns : 80;
  }

  /**
   * Colour on a stream only when it is a terminal, and never with NO_COLOR (any non-empty
   * value) or --no-color (`colorFlag` false). FORCE_COLOR wins over the TTY check, as most
   * tools agree.
   */
  colorEnabled(colorFlag: boolean | undefined, stream: StreamName = 'stdout'): boolean {
    const env = this.env;
    if (colorFlag === false) return false;
    if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
    if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
    if (env.TERM === 'dumb') return false;
    return stream === 'stdout' ? this.isStdoutTTY() : this.isStderrTTY();
  }

  /** The colours for `stream`, as colorEnabled decides (chalk loads only when they are on). */
  style(colorFlag: boolean | undefined, stream: StreamName = 'stdout'): Promise<Style> {
    const manyColours = /256colou?r/i.test(this.env.TERM ?? '') || /^(truecolor|24bit)$/i.test(this.env.COLORTERM ?? '');
    return loadStyle(this.colorEnabled(colorFlag, stream), manyColours);
  }

  /** Prompts only where someone can answer them: never with --no-input (`noInputFlag`) or in CI. */
  canPrompt(noInputFlag: boolean | undefined): boolean {
    if (noInputFlag === true) return false;
    const ci = this.env.CI;
    if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return false;
    // stdout first: reading stdin's isTTY creates the stdin stream, which a command piped to
    // another never needs (its cost: docs/performance.md, "Figures behind the code's comments").
    return this.isStdoutTTY() && this.isStdinTTY();
  }

  /** The same streams, answers and progress, with stdout replaced (by --jq's filter). */
  withStdout(stdout: Streams['stdout']): IOStreams {
    return Object.create(this, { stdout: { value: stdout } }) as IOStreams;
  }
}

export function writeLine(stream: Writable, line = ''): void {
  stream.write(line + '\n');
}

/**
 * Writes, and when the reader is slower than us (a full pipe) waits until it catches up, so
 * a long output streams instead of piling up in memory. A closed stream does not wait.
 */
export async function writeData(stream: Writable, text: string): Promise<void> {
  if (stream.write(text) || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/** Every byte of a stream (stdin), to be decoded as the files are (cmdutil/input's readText). */
export async function readAllBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
