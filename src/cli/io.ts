import type { Readable, Writable } from 'node:stream';

/** The process's streams and what is known about them, injected into every command. */
export interface IOStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

export type Env = Readonly<Record<string, string | undefined>>;

export function isStdoutTTY(io: IOStreams): boolean {
  return io.stdout.isTTY === true;
}

export function isStderrTTY(io: IOStreams): boolean {
  return io.stderr.isTTY === true;
}

export function terminalWidth(io: IOStreams): number {
  return io.stdout.columns && io.stdout.columns > 20 ? io.stdout.columns : 80;
}

/**
 * Colour on stdout only for a terminal, and never with NO_COLOR (any non-empty value) or
 * --no-color. FORCE_COLOR wins over the TTY check, as most tools agree.
 */
export function colorEnabled(io: IOStreams, env: Env, colorFlag: boolean | undefined, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (colorFlag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return stream === 'stdout' ? isStdoutTTY(io) : isStderrTTY(io);
}

/** Prompts only where someone can answer them. */
export function canPrompt(io: IOStreams, env: Env, noInputFlag: boolean | undefined): boolean {
  if (noInputFlag === true) return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  // stdout first: reading stdin's isTTY creates the stdin stream, which a command piped to
  // another never needs (a measurable part of `templates create`'s start-up).
  return io.stdout.isTTY === true && io.stdin.isTTY === true;
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

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
