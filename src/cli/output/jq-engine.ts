/**
 * jq itself (jq-web: the jq C sources compiled to WebAssembly), behind one call, with bounds: a
 * run stops at a time limit, at Ctrl-C, when jq's memory would pass a limit, and when its output
 * would; past any of them it is a jq-style error, and the next run gets a fresh jq. Loaded only
 * by `--jq`.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { compileExpression } from '../../../bin/code-cache.js';
import { jqWebFile } from '../cmdutil/import-package.js';

/** What one jq run gave: its output (one compact JSON text per line), its diagnostics and jq's exit status. */
export interface JqRun {
  output: string;
  stderr: string;
  /** jq's own: 0, 2 input not JSON, 3 compile error, 5 runtime error (and a bound passed). */
  status: number;
  /** Ctrl-C stopped the run: the signal has gone on to the command. */
  interrupted?: true;
}

export interface JqEngine {
  run(input: string, filter: string): Promise<JqRun>;
}

export interface JqLimits {
  timeMs: number;
  memoryBytes: number;
  outputBytes: number;
  stderrBytes: number;
}

export const JQ_LIMITS: JqLimits = {
  /** A run longer than this is stopped (REPORTCTL_JQ_TIMEOUT_MS). */
  timeMs: 30_000,
  /** jq's WebAssembly memory: a run that would need more fails as jq does, "cannot allocate memory". */
  memoryBytes: 1024 * 2 ** 20,
  /** jq's output for one input (compact JSON; a terminal shows it indented). */
  outputBytes: 256 * 2 ** 20,
  /** What `debug` and `stderr` may print for one input. */
  stderrBytes: 2 ** 20,
};

// The WebAssembly API, as far as this file uses it (the project's types are Node's, without the DOM's).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => WasmInstance;
  Memory: { prototype: WasmMemory };
};

type Instance = { raw(input: string, filter: string, flags: string[]): string | undefined };
type Factory = (moduleArg: Record<string, unknown>) => Promise<Instance>;

/**
 * Edits to jq-web's jq.js (pinned in package.json), each found exactly once: its stdout and
 * stderr go to the run's collectors instead of an array of numbers per byte, and the file
 * gives its factory instead of calling it once (which would compile the WebAssembly again).
 */
const EDITS: ReadonlyArray<readonly [from: string, to: string]> = [
  ['if (c) outBuffer.push(c)', 'Module.jqStdout(c)'],
  ['if (c) errBuffer.push(c)', 'Module.jqStderr(c)'],
];
const EXPORTS_START = "\nif (typeof exports === 'object' && typeof module === 'object') {\n  module.exports = jq;";

function edited(source: string): string {
  let text = source;
  for (const [from, to] of EDITS) {
    if (text.split(from).length !== 2) throw new Error(`jq-web's jq.js no longer has one "${from}" (src/cli/output/jq-engine.ts)`);
    text = text.replace(from, to);
  }
  const end = text.indexOf(EXPORTS_START);
  if (end < 0 || text.indexOf(EXPORTS_START, end + 1) >= 0) throw new Error("jq-web's jq.js no longer ends as src/cli/output/jq-engine.ts expects");
  return `${text.slice(0, end)}\nreturn jq;`;
}

// Liftoff only, compiled function by function as jq reaches it: V8's default would also
// optimise in the background, CPU that a filter over one answer never pays back
// (docs/performance.md); without dynamic tiering when the module is made, Node 24's V8 does not
// optimise it later either. Set around each run and set back after, as V8 takes code caches
// only under the flags they were made with.
const LIFTOFF_ONLY = '--liftoff-only --no-wasm-dynamic-tiering --no-wasm-tier-up';
const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';

function liftoffOnly<T>(work: () => T): T {
  setFlagsFromString(LIFTOFF_ONLY);
  try {
    return work();
  } finally {
    setFlagsFromString(DEFAULTS);
  }
}

/** Bytes jq writes, kept in blocks, up to a limit. */
class Collector {
  private readonly blocks: Uint8Array[] = [];
  private block = new Uint8Array(1 << 16);
  private at = 0;
  size = 0;
  constructor(private readonly limit: number) {}

  push(byte: number): void {
    if (++this.size > this.limit) return;
    if (this.at === this.block.length) {
      this.blocks.push(this.block);
      this.block = new Uint8Array(Math.min(this.block.length * 2, 1 << 22));
      this.at = 0;
    }
    this.block[this.at++] = byte;
  }

  get overflowed(): boolean {
    return this.size > this.limit;
  }

  text(): string {
    const decoder = new TextDecoder();
    const parts = this.blocks.map((block) => decoder.decode(block, { stream: true }));
    parts.push(decoder.decode(this.block.subarray(0, this.at)));
    return parts.join('');
  }
}

/** What the runner's script calls, under vm's time limit and Ctrl-C. */
const CALL = Symbol.for('reportctl.jq.run');

interface Loaded {
  factory: Factory;
  wasm: object;
}

function load(): Loaded {
  const script = jqWebFile('jq.js');
  // Compiled from a code cache where there is one, as the build's files are (bin/code-cache.js).
  const compiled = compileExpression(`(function (require, __filename, __dirname) {\n${edited(readFileSync(script, 'utf8'))}\n})`, script, 'jq-web.js') as (
    ...args: [NodeJS.Require, string, string]
  ) => Factory;
  const factory = compiled(createRequire(script), script, dirname(script));
  const wasm = liftoffOnly(() => new WebAssembly.Module(readFileSync(jqWebFile('jq.wasm'))));
  return { factory, wasm };
}

/** Memory that grows no further than `limit` bytes: past it, jq's allocation fails as on a full machine. */
function capGrowth(memory: WasmMemory, limit: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  memory.grow = (pages: number) => {
    if (memory.buffer.byteLength + pages * 65_536 > limit) throw new RangeError('over reportctl\'s limit for jq');
    return grow.call(memory, pages);
  };
}

/** Where the running jq writes: one pair of collectors per run. */
interface Sinks {
  stdout: Collector;
  stderr: Collector;
}

/**
 * jq-web's C stack is the 64 KiB below its heap, and nothing stops a deep recursion (printing
 * or freeing a value nested some 50 levels) from running past its end into jq's static data.
 * The lowest 16 KiB are filled with a pattern before each run: a run that leaves it changed came
 * too close, its output is dropped and the next run gets a fresh jq.
 */
const STACK_BYTES = 64 * 1024;
const GUARD_BYTES = 16 * 1024;
const GUARD_WORD = 0xa5a5a5a5;

/** One jq, ready to run, with what its bounds watch. */
interface LiveJq {
  raw: Instance['raw'];
  memory: WasmMemory;
  /** The address of the stack's guard. */
  guard: number;
}

const guardWords = (jq: LiveJq) => new Uint32Array(jq.memory.buffer, jq.guard, GUARD_BYTES / 4);

async function instantiate(loaded: Loaded, sinks: { current?: Sinks }, memoryBytes: number): Promise<LiveJq> {
  let exports: Record<string, unknown> = {};
  const instance = await loaded.factory({
    instantiateWasm(imports: object, receive: (instance: WasmInstance, module: object) => void) {
      const created = new WebAssembly.Instance(loaded.wasm, imports);
      exports = created.exports;
      capGrowth(created.exports.memory as WasmMemory, memoryBytes);
      receive(created, loaded.wasm);
      return {};
    },
    jqStdout: (byte: number) => sinks.current?.stdout.push(byte),
    jqStderr: (byte: number) => sinks.current?.stderr.push(byte),
    // The runtime's own notes ("Aborted()") go nowhere: a stopped run is reported from its error.
    print: () => {},
    printErr: () => {},
  });
  const stackTop = (exports.emscripten_stack_get_current as () => number)();
  return { raw: instance.raw.bind(instance), memory: exports.memory as WasmMemory, guard: stackTop - STACK_BYTES };
}

type Failure = Error & { exitCode?: number; code?: string };

const failed = (message: string): JqRun => ({ output: '', stderr: `jq: error: ${message}`, status: 5 });

/** jq's message when a run ended without jq reporting its own status. */
function stoppedRun(error: Failure, sinks: Sinks, timeMs: number): JqRun {
  if (error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return failed(`the filter ran for more than ${timeMs / 1000} s and was stopped (REPORTCTL_JQ_TIMEOUT_MS)`);
  // jq's own last words ("jq: error: cannot allocate memory") before the abort that follows them.
  const said = sinks.stderr.text().trim();
  if (said.startsWith('jq: error')) return { output: '', stderr: said, status: 5 };
  return failed(`jq stopped: ${error.message.split('\n')[0]}`);
}

const TOO_DEEP = failed('a value nested too deep for jq here (its stack ran out); nothing of this input was printed');

/** Runs jq over one input with every bound, and says how it ended. */
class JqRunner implements JqEngine {
  private live: Promise<LiveJq> | undefined;
  private readonly sinks: { current?: Sinks } = {};
  private readonly call = new Script('globalThis[Symbol.for("reportctl.jq.run")]()', { filename: 'reportctl-jq' });

  constructor(
    private readonly loaded: Loaded,
    private readonly limits: JqLimits,
  ) {}

  private jq(): Promise<LiveJq> {
    this.live ??= instantiate(this.loaded, this.sinks, this.limits.memoryBytes).catch((error: unknown) => {
      this.live = undefined;
      throw error;
    });
    return this.live;
  }

  async run(input: string, filter: string): Promise<JqRun> {
    const jq = await this.jq();
    const sinks: Sinks = { stdout: new Collector(this.limits.outputBytes), stderr: new Collector(this.limits.stderrBytes) };
    guardWords(jq).fill(GUARD_WORD);
    let failure: Failure | undefined;
    this.sinks.current = sinks;
    try {
      this.runBounded(() => jq.raw(input, filter, ['-c']));
    } catch (caught) {
      failure = caught as Failure;
    } finally {
      this.sinks.current = undefined;
    }
    const run = this.outcome(jq, sinks, failure);
    // A run stopped midway, or one that reached its stack's guard, leaves jq's memory in no known state.
    if (run === TOO_DEEP || (failure !== undefined && typeof failure.exitCode !== 'number')) this.live = undefined;
    return run;
  }

  /** `work` under the time limit and Ctrl-C, with SIGTERM left to end the process. */
  private runBounded(work: () => unknown): void {
    (globalThis as Record<symbol, unknown>)[CALL] = work;
    // SIGTERM while jq runs ends the process at once, as it would jq; Ctrl-C stops jq (breakOnSigint).
    const onTerm = process.listeners('SIGTERM');
    for (const listener of onTerm) process.off('SIGTERM', listener);
    // jq-web sets the process's exit status as a C program's exit would: not the command's.
    const exitCode = process.exitCode;
    try {
      liftoffOnly(() => this.call.runInThisContext({ timeout: this.limits.timeMs, breakOnSigint: true }));
    } finally {
      process.exitCode = exitCode;
      for (const listener of onTerm) process.on('SIGTERM', listener);
      delete (globalThis as Record<symbol, unknown>)[CALL];
    }
  }

  private outcome(jq: LiveJq, sinks: Sinks, failure: Failure | undefined): JqRun {
    if (failure?.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
      // The Ctrl-C went to jq: the command gets it too, as it would have without --jq.
      process.kill(process.pid, 'SIGINT');
      return { output: '', stderr: '', status: 130, interrupted: true };
    }
    if (!guardWords(jq).every((word) => word === GUARD_WORD)) return TOO_DEEP;
    // What jq printed before its error stays, as with jq.
    if (typeof failure?.exitCode === 'number') return { output: sinks.stdout.text(), stderr: sinks.stderr.text(), status: failure.exitCode };
    if (failure !== undefined) return stoppedRun(failure, sinks, this.limits.timeMs);
    if (sinks.stdout.overflowed) return failed(`the filter printed more than ${this.limits.outputBytes / 2 ** 20} MiB for one input`);
    return { output: sinks.stdout.text(), stderr: sinks.stderr.text(), status: 0 };
  }
}

/** A jq of its own, with `limits` in place of JQ_LIMITS where given. */
export function createJqEngine(limits: Partial<JqLimits> = {}): JqEngine {
  return new JqRunner(load(), { ...JQ_LIMITS, ...limits });
}

let engine: JqEngine | undefined;

/** The command's jq, loaded once per process; `timeMs` bounds each run. */
export function loadJq(timeMs?: number): JqEngine {
  engine ??= createJqEngine(timeMs === undefined ? {} : { timeMs });
  return engine;
}
