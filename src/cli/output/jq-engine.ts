/**
 * jq itself (jq-web: the jq C sources compiled to WebAssembly), behind one call, with bounds: a
 * run stops at a time limit, at Ctrl-C, when jq's memory would pass a limit, and when its output
 * would; past any of them it is a jq-style error, and the next run gets a fresh jq. Loaded only
 * by `--jq`.
 */

import { Script } from 'node:vm';
import { Collector, GUARD_WORD, guardWords, instantiate, liftoffOnly, load, type Loaded, type LiveJq, type Sinks } from './jq-web.js';

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

/** What the runner's script calls, under vm's time limit and Ctrl-C. */
const CALL = Symbol.for('reportctl.jq.run');

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
