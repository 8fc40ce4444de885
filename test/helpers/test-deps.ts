// The dependencies every CLI test builds: captured streams, which of them claim a terminal,
// and fakes for the prompter, editor, clock and network. Server-free, so a test that only
// parses flags (flags.ts) loads no more than the CLI; in-process.ts adds the service.
import { Readable, Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { systemClock, type CliDeps, type Clock } from '../../src/cli/cmdutil/context.js';
import type { Editor } from '../../src/cli/iostreams/editor.js';
import type { IOStreams } from '../../src/cli/iostreams/io.js';
import type { Prompter } from '../../src/cli/iostreams/prompter.js';
import { systemDeps } from '../../src/cli/system-deps.js';
import { cleanEnv } from './cli.js';

/** A stream that keeps what is written to it. */
class Captured extends Writable {
  text = '';
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  constructor(tty: boolean, size: { columns?: number; rows?: number }) {
    super({ decodeStrings: false });
    if (tty) {
      this.isTTY = true;
      this.columns = size.columns ?? 100;
      if (size.rows !== undefined) this.rows = size.rows;
    }
  }
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += typeof chunk === 'string' ? chunk : String(chunk);
    done();
  }
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds (ended after it). */
  input?: string | Uint8Array;
  /** Which streams claim to be a terminal (prompts need stdin and stdout). */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean; columns?: number; rows?: number };
  prompter?: Prompter;
  editor?: Editor;
  clock?: Clock;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  nodeVersion?: string;
  /** Answers of deps.io to fix, whatever the streams and environment say (as gh's SetNeverPrompt). */
  io?: Partial<Pick<IOStreams, 'canPrompt' | 'colorEnabled'>>;
}

export interface InProcessDeps {
  deps: CliDeps;
  stdout(): string;
  stderr(): string;
}

/** Dependencies as main.ts builds them, with the streams captured and the fakes given. */
export function testDeps(options: InProcessOptions = {}): InProcessDeps {
  const tty = options.tty ?? {};
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), tty.stdin ? { isTTY: true } : {});
  const stdout = new Captured(tty.stdout === true, tty);
  const stderr = new Captured(tty.stderr === true, tty);
  const deps = systemDeps(
    {
      streams: { stdin, stdout, stderr },
      // The terminal is what `tty` says, not the one the tests run in: its kind stays out too.
      env: cleanEnv({ TERM: undefined, COLORTERM: undefined, ...options.env }),
      clock: options.clock ?? systemClock,
      signal: options.signal ?? new AbortController().signal,
      ...(options.nodeVersion !== undefined ? { nodeVersion: options.nodeVersion } : {}),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    },
    {
      prompter: options.prompter ?? refusingPrompter,
      ...(options.editor ? { editor: options.editor } : {}),
    },
  );
  Object.assign(deps.io, options.io);
  return { deps, stdout: () => stdout.text, stderr: () => stderr.text };
}

/** The prompter for tests that expect no question: any question fails. */
export const refusingPrompter: Prompter = new Proxy({} as Prompter, {
  get: (_target, kind) => (question: { message: string }) => Promise.reject(new Error(`unexpected ${String(kind)} prompt: ${question.message}`)),
});
