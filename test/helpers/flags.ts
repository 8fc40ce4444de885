// A verb's flag parsing on its own, as gh's TestNewCmdClose does with runF: `runCli` in this
// process registers only the verb, with a run that records what it was given, so a table of
// argv rows shows the options and arguments each one yields, or the usage error (exit 2).
// No service, no prompt, no file is touched.
import { expect, it } from 'vitest';
import type { Wrap } from '../../src/cli/cmdutil/action.js';
import type { CliDeps } from '../../src/cli/cmdutil/context.js';
import { runCli } from '../../src/cli/program.js';
import type { Root } from '../../src/cli/cmdutil/verb.js';
import { testDeps } from './test-deps.js';

/** Stands for the verb's run: takes whatever options and arguments the verb's run would. */
type Recorder = (options: object, ...args: unknown[]) => Promise<void>;
/** Registers the verb under test on `program` (under its noun), with `runF` as its run. */
export type RegisterVerb = (program: Root, deps: CliDeps, wrap: Wrap, runF: Recorder) => void;

export interface Parsed {
  code: number;
  stderr: string;
  /** What the run got; undefined when it did not run. */
  options?: Record<string, unknown>;
  args?: unknown[];
}

/** The root's negatable switches at their defaults, left out so a row shows what it sets. */
const ROOT_DEFAULTS: Record<string, unknown> = { color: true, input: true };

export async function parseVerb(register: RegisterVerb, argv: string[]): Promise<Parsed> {
  // Nothing but stderr is reached before the run, which is replaced.
  const { deps, stderr } = testDeps();
  let ran: { options: Record<string, unknown>; args: unknown[] } | undefined;
  const record = async (options: object, ...args: unknown[]) => {
    const set = Object.entries(options).filter(([name, value]) => ROOT_DEFAULTS[name] !== value);
    ran = { options: Object.fromEntries(set), args };
  };
  const code = await runCli(argv, deps, (program, d, wrap) => register(program, d, wrap, record));
  return { code, stderr: stderr(), ...ran };
}

/** What a row expects: the run's options (and positional arguments), or a usage error. */
export type Want = { options: Record<string, unknown>; args?: unknown[] } | { usage: RegExp };

/** One test per row: argv in, the options the run receives (or exit 2 and the message) out. */
export function itParsesFlags(register: RegisterVerb, rows: ReadonlyArray<readonly [argv: string[], want: Want]>): void {
  it.each(rows)('reportctl %j', async (argv, want) => {
    const parsed = await parseVerb(register, argv);
    if ('usage' in want) {
      expect(parsed.code, parsed.stderr).toBe(2);
      expect(parsed.stderr).toMatch(want.usage);
      expect(parsed.options, 'the run must not start').toBeUndefined();
    } else {
      expect(parsed.code, parsed.stderr).toBe(0);
      expect(parsed.options).toEqual(want.options);
      expect(parsed.args).toEqual(want.args ?? []);
    }
  });
}
