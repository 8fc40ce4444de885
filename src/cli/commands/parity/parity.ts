import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { integerOption, repeatable, secondsOption } from '../../cmdutil/option-parsers.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';
import type { Style } from '../../iostreams/style.js';
import type { Ignore } from './support/compare.js';
import type { ServiceTraits } from './support/fresh-serve.js';
import type { StepOutcome } from './support/run.js';
import type { Step } from './support/context.js';

/** Requests the target may be sent in one run: the scenario takes about 80, cleanup included. */
export const DEFAULT_BUDGET = 200;
/** Seconds the scenario may take in all (cleanup gets 30 s more). */
export const DEFAULT_MAX_SECONDS = 300;

const verb = (program: Root) =>
  program
    .command('parity')
    .description("Compare the embedded serve with a real service (live or from a recording) and report where serve differs")
    .option('--record <dir>', "also write the target's normalised answers here (one JSON file per step), for --replay")
    .option('--replay <dir>', 'compare a fresh serve with a recording instead of a live service (offline)')
    .option('--ignore <operation:path>', 'accept a difference: OPERATION (or STEP, or *) and a path, e.g. listTemplates:body.total; repeatable', repeatable, [])
    .option('--ignore-file <file>', 'more --ignore entries, one a line (# comments); with --replay, DIR/ignore.txt is read too')
    .option('--budget <n>', 'most requests sent to the target, retries and cleanup included', integerOption(1), DEFAULT_BUDGET)
    .option('--max-time <s>', 'most seconds the scenario may take (cleanup may take 30 s more)', secondsOption(1), DEFAULT_MAX_SECONDS)
    .option('--only <operation>', 'run only the steps of this operation (and those they build on); repeatable', repeatable, [])
    .option('--cleanup', 'first delete templates an earlier parity run left on the account (named reportctl-parity-…)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl parity --base-url https://sandbox.example.com --api-key rctl_…
  $ reportctl parity --base-url URL --api-key KEY --record parity-recording
  $ reportctl parity --replay parity-recording
  $ reportctl parity --replay parity-recording --ignore 'getTemplate:body.mapResolution' --json

The scenario walks every operation of the contract against the target (use a sandbox
account), then against a fresh in-memory serve loaded with the target's catalogs, and compares
status codes, error codes and issue paths, field sets and types, the contract's headers,
paging totals and formula verdicts, after normalising ids, times, keys and unpromised order.
Templates it creates are named reportctl-parity-<run>-… and deleted at the end, on failure
and on Ctrl-C; it deletes nothing else. Paths in differences and ignores: status,
header.NAME, body.FIELD.SUB, [] for any array element. See docs/parity.md.
Exit codes: 0 no difference, 1 differences (or templates left behind), 2 usage, 3 key refused,
6 network, 130 interrupted.`,
    );
export type ParityOptions = OptionsOf<typeof verb>;

export function registerParity(program: Root, deps: CliDeps, wrap: Wrap, runF: RunF<ParityOptions> = (options) => runParity(options, deps)): void {
  bindRun(verb(program), wrap, runF);
}

export async function runParity(options: ParityOptions, deps: CliDeps): Promise<ExitCodeValue> {
  if (options.record !== undefined && options.replay !== undefined) throw new UsageError('--record and --replay do not go together', 'record against a live service, then replay the recording');
  const ignores = await ignoresOf(options);
  const { endpoints } = await import('../../../contract/endpoints.js');
  const unknown = options.only.find((operation) => !Object.hasOwn(endpoints, operation));
  if (unknown !== undefined) usage(`--only: no operation \`${unknown}\``, `operations: ${Object.keys(endpoints).join(', ')}`);
  const { stepsOf } = await import('./support/scenario.js');
  const steps = stepsOf(options.only);
  const started = deps.clock.now();
  const expected = await expectedOutcomes(options, deps, steps, started + options.maxTime * 1000);
  if (expected === undefined) return ExitCode.interrupted;
  ignores.push(...expected.ignores);
  const served = await runOnFreshServe(expected.traits, steps, options.maxTime, deps);
  if (deps.signal.aborted) return ExitCode.interrupted;

  const { compareOutcomes, printComparison } = await import('./support/report.js');
  const comparison = compareOutcomes(steps, expected.outcomes, served.outcomes, ignores);
  const seconds = Math.round((deps.clock.now() - started) / 100) / 10;
  const { targetRequests } = expected;
  const requests = { ...(targetRequests !== undefined ? { target: targetRequests } : {}), serve: served.requests };
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify({ ...comparison, requests, budget: options.budget, seconds }));
  } else {
    await printComparison(deps, expected.style, comparison);
  }
  const ignored = comparison.ignored > 0 ? `, ${comparison.ignored} ignored` : '';
  const unanswered = comparison.operations.reduce((sum, row) => sum + row.notComparable.length, 0);
  const notComparable = unanswered > 0 ? `, ${unanswered} steps not comparable` : '';
  const target = targetRequests !== undefined ? `${targetRequests} requests to the target (budget ${options.budget}), ` : `replayed ${options.replay}, `;
  writeLine(deps.io.stderr, `${comparison.differences.length} differences${ignored}${notComparable}; ${target}${served.requests} to serve, ${seconds} s`);
  if (expected.leftBehind.length > 0) return ExitCode.failed;
  return comparison.result === 'differs' ? ExitCode.failed : ExitCode.ok;
}

/** --ignore patterns, then those of --ignore-file. */
async function ignoresOf(options: ParityOptions): Promise<Ignore[]> {
  const { parseIgnore } = await import('./support/compare.js');
  const { readIgnoreFile } = await import('./support/recording.js');
  const ignores = options.ignore.map((text) => parseIgnore(text) ?? usage(`--ignore: expected OPERATION:PATH, got \`${text}\``));
  if (options.ignoreFile !== undefined) ignores.push(...(await readIgnoreFile(options.ignoreFile, true)));
  return ignores;
}

interface Expected {
  outcomes: Map<string, StepOutcome>;
  traits: ServiceTraits;
  style: Style;
  /** A recording's own ignores; none from a live run. */
  ignores: Ignore[];
  /** Undefined on a replay. */
  targetRequests?: number;
  leftBehind: string[];
}

/** What serve should answer: from --replay, or from the target now (kept with --record); undefined when interrupted. */
async function expectedOutcomes(options: ParityOptions, deps: CliDeps, steps: readonly Step[], deadline: number): Promise<Expected | undefined> {
  const { readRecording, writeRecording } = await import('./support/recording.js');
  if (options.replay !== undefined) {
    const recording = await readRecording(options.replay);
    return { outcomes: recording.outcomes, traits: recording.traits, style: await deps.io.style(options.color), ignores: recording.ignores, leftBehind: [] };
  }
  const session = await deps.api(options, { retries: false });
  deps.io.progress.stop();
  const { apiKey, baseUrl } = session.settings;
  if (apiKey === undefined || apiKey === '') throw new CliError('parity needs an API key of a sandbox account', ExitCode.auth, 'pass --api-key or set REPORTCTL_API_KEY');
  const { runAgainstTarget } = await import('./support/target-run.js');
  const live = await runAgainstTarget({ baseUrl, apiKey, budget: options.budget, deadline, cleanup: options.cleanup === true, steps }, deps);
  if (live.interrupted) return undefined;
  if (options.record !== undefined) await writeRecording(options.record, steps, live.traits, live.outcomes);
  return { outcomes: live.outcomes, traits: live.traits, style: await deps.io.style(options.color), ignores: [], targetRequests: live.requests, leftBehind: live.leftBehind };
}

/** The same steps against a fresh serve shaped like the target, closed however the run ends. */
async function runOnFreshServe(traits: ServiceTraits, steps: readonly Step[], maxSeconds: number, deps: CliDeps): Promise<{ outcomes: Map<string, StepOutcome>; requests: number }> {
  const { startFreshServe } = await import('./support/fresh-serve.js');
  const { newContext, runScenario } = await import('./support/run.js');
  const { PacedService } = await import('./support/paced.js');
  const serve = await startFreshServe(traits);
  try {
    // The local run gets the same allowance of its own, however long the target took.
    const deadline = deps.clock.now() + maxSeconds * 1000;
    const service = new PacedService({ baseUrl: serve.url, apiKey: serve.apiKey, clock: deps.clock, budget: Infinity, deadline, signal: deps.signal });
    const outcomes = await runScenario(service, newContext(Math.random), steps);
    return { outcomes, requests: service.sent };
  } finally {
    await serve.close();
  }
}

function usage(message: string, hint?: string): never {
  throw new UsageError(message, hint);
}
