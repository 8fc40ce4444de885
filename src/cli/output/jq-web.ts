/**
 * jq-web (the jq C sources compiled to WebAssembly) loaded and started for the engine
 * (jq-engine.ts): its jq.js edited as it is read and compiled from a code cache, its jq.wasm
 * compiled lazily with Liftoff only, an instance whose memory grows no further than a limit and
 * whose C stack ends in a guard.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { compileExpression } from '../../../bin/code-cache.js';
import { jqWebFile } from '../iostreams/import-package.js';

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

export function liftoffOnly<T>(work: () => T): T {
  setFlagsFromString(LIFTOFF_ONLY);
  try {
    return work();
  } finally {
    setFlagsFromString(DEFAULTS);
  }
}

/** Bytes jq writes, kept in blocks, up to a limit. */
export class Collector {
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


export interface Loaded {
  factory: Factory;
  wasm: object;
}

export function load(): Loaded {
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
export interface Sinks {
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
export const GUARD_WORD = 0xa5a5a5a5;

/** One jq, ready to run, with what its bounds watch. */
export interface LiveJq {
  raw: Instance['raw'];
  memory: WasmMemory;
  /** The address of the stack's guard. */
  guard: number;
}

export const guardWords = (jq: LiveJq) => new Uint32Array(jq.memory.buffer, jq.guard, GUARD_BYTES / 4);

export async function instantiate(loaded: Loaded, sinks: { current?: Sinks }, memoryBytes: number): Promise<LiveJq> {
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
