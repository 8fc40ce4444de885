import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { integerOption, repeatable, secondsOption } from '../../cmdutil/option-parsers.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';
import type { Style } from '../../iostreams/style.js';
import type { Ignore } from './support/compare.js';
import type { ServiceTraits } from './support/fresh-serve.js';
import type { Keys } from './support/paced.js';
import type { RecordingFolder } from './support/recording.js';
import type { Comparison } from './support/report.js';
import type { Finding, OptionalKey, Step, StepOutcome } from './support/step.js';

/** Requests the target may be sent in one run: a full run takes about 160, cleanup included. */
export const DEFAULT_BUDGET = 250;
/** Seconds the scenario may take in all (cleanup gets 30 s more). */
export const DEFAULT_MAX_SECONDS = 300;

const verb = (program: Root) =>
  program
    .command('parity')
    .description("Compare the embedded serve with a real service (live or from a recording) and report where serve, or the service, differs from the specification")
    .option('--record <dir>', "also write the target's normalised answers here (one JSON file per step), for --replay")
    .option('--replay <dir>', 'compare a fresh serve with a recording instead of a live service (offline)')
    .option('--other-account-key <key>', "another account's key (or REPORTCTL_PARITY_OTHER_ACCOUNT_KEY): check that neither account reaches the other's templates")
    .option('--sub-user-key <key>', "a sub-user's key of the account (or REPORTCTL_PARITY_SUB_USER_KEY): check that it sees the owner's data")
    .option('--ignore <operation:path>', 'accept a difference: OPERATION (or STEP, or *) and a path, e.g. listTemplates:body.total or *:specification.rate-limit; repeatable', repeatable, [])
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
  $ reportctl parity --base-url URL --api-key KEY --other-account-key KEY2 --sub-user-key KEY3
  $ reportctl parity --base-url URL --api-key KEY --record parity-recording
  $ reportctl parity --replay parity-recording
  $ reportctl parity --replay parity-recording --ignore 'getTemplate:body.mapResolution' --json

The scenario walks every operation of the contract against the target (use a sandbox
account), then against a fresh in-memory serve loaded with the target's catalogs, and compares
status codes, error codes and issue paths, field sets and types, the contract's headers,
paging totals and formula verdicts, after normalising ids, times, keys and unpromised order.
Apart from that, each answer is held to the specification's own numbers and rules (rate
limits, page sizes, the formula's length, messages) and the data the account holds to the
contract. Templates it creates are named reportctl-parity-<run>-… and deleted at the end, on
failure and on Ctrl-C; it deletes nothing else. Paths in differences and ignores: status,
header.NAME, body.FIELD.SUB ([] for any array element), specification.RULE. See docs/parity.md.
Exit codes: 0 nothing differs, 1 differences (or templates left behind), 2 usage, 3 key refused,
6 network, 9 answers past what a run keeps (32 MiB), 130 interrupted.`,
    );
export type ParityOptions = OptionsOf<typeof verb>;

export function registerParity(program: Root, deps: CliDeps, wrap: Wrap, runF: RunF<ParityOptions> = (options) => runParity(options, deps)): void {
  bindRun(verb(program), wrap, runF);
}

/** What the target answered (live or recorded), and what was found of it. */
interface Expected {
  steps: readonly Step[];
  keys: ReadonlySet<OptionalKey>;
  outcomes: Map<string, StepOutcome>;
  traits: ServiceTraits;
  /** A recording's own ignores; none from a live run. */
  ignores: Ignore[];
  specification: Finding[];
  notChecked: string[];
  /** Undefined on a replay. */
  target?: { requests: number; waited: number; leftBehind: string[] };
}

/** What serve answered, run the same way. */
interface Served {
  outcomes: Map<string, StepOutcome>;
  specification: Finding[];
  notChecked: string[];
  requests: number;
}

export async function runParity(options: ParityOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const keys = optionalKeys(options, deps);
  if (options.record !== undefined && options.replay !== undefined) throw new UsageError('--record and --replay do not go together', 'record against a live service, then replay the recording');
  if (options.replay !== undefined && Object.keys(keys).length > 0) throw new UsageError('--other-account-key and --sub-user-key go with a live run, not --replay', 'a recording made with them replays their steps');
  const ignores = await ignoresOf(options);
  const { endpoints } = await import('../../../contract/endpoints.js');
  const unknown = options.only.find((operation) => !Object.hasOwn(endpoints, operation));
  if (unknown !== undefined) usage(`--only: no operation \`${unknown}\``, `operations: ${Object.keys(endpoints).join(', ')}`);
  const started = deps.clock.now();
  const expected = await expectedOutcomes(options, deps, keys, started + options.maxTime * 1000);
  if (expected === undefined) return ExitCode.interrupted;
  const served = await runOnFreshServe(expected, options, deps);
  if (deps.signal.aborted) return ExitCode.interrupted;
  const { compareOutcomes } = await import('./support/report.js');
  const comparison = compareOutcomes(
    expected.steps,
    { expected: expected.outcomes, served: served.outcomes },
    { specification: [...expected.specification, ...served.specification], notChecked: [...expected.notChecked, ...served.notChecked] },
    [...ignores, ...expected.ignores],
  );
  await report(comparison, expected, served, { options, deps, seconds: Math.round((deps.clock.now() - started) / 100) / 10 });
  if ((expected.target?.leftBehind.length ?? 0) > 0) return ExitCode.failed;
  return comparison.result === 'differs' ? ExitCode.failed : ExitCode.ok;
}

/** The optional keys, from their flags or (for a live run) the environment. */
function optionalKeys(options: ParityOptions, deps: CliDeps): Partial<Pick<Keys, OptionalKey>> {
  const live = options.replay === undefined;
  const otherAccount = options.otherAccountKey ?? (live ? deps.env.REPORTCTL_PARITY_OTHER_ACCOUNT_KEY : undefined);
  const subUser = options.subUserKey ?? (live ? deps.env.REPORTCTL_PARITY_SUB_USER_KEY : undefined);
  if (otherAccount === '' || subUser === '') usage('--other-account-key and --sub-user-key need a key, not an empty value');
  return { ...(otherAccount !== undefined ? { otherAccount } : {}), ...(subUser !== undefined ? { subUser } : {}) };
}

async function report(comparison: Comparison, expected: Expected, served: Served, run: { options: ParityOptions; deps: CliDeps; seconds: number }): Promise<void> {
  const { options, deps, seconds } = run;
  const { target } = expected;
  const requests = { ...(target ? { target: target.requests } : {}), serve: served.requests };
  const waited = target ? Math.round(target.waited / 1000) : 0;
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify({ ...comparison, requests, budget: options.budget, seconds, waitedSeconds: waited }));
  } else {
    const { printComparison } = await import('./support/report.js');
    const style: Style = await deps.io.style(options.color);
    await printComparison(deps, style, comparison);
  }
  const ignored = comparison.ignored > 0 ? `, ${comparison.ignored} ignored` : '';
  const unanswered = comparison.operations.reduce((sum, row) => sum + row.notComparable.length, 0);
  const notComparable = unanswered > 0 ? `, ${unanswered} steps not comparable` : '';
  const waits = waited > 0 ? `, ${waited} s of it waiting for the target's rate limits` : '';
  const from = target ? `${target.requests} requests to the target (budget ${options.budget}), ` : `replayed ${options.replay}, `;
  writeLine(deps.io.stderr, `${comparison.differences.length} differences from serve, ${comparison.specification.length} from the specification${ignored}${notComparable}; ${from}${served.requests} to serve, ${seconds} s${waits}`);
}

/** --ignore patterns, then those of --ignore-file. */
async function ignoresOf(options: ParityOptions): Promise<Ignore[]> {
  const { parseIgnore } = await import('./support/compare.js');
  const { readIgnoreFile } = await import('./support/recording.js');
  const ignores = options.ignore.map((text) => parseIgnore(text) ?? usage(`--ignore: expected OPERATION:PATH, got \`${text}\``));
  if (options.ignoreFile !== undefined) ignores.push(...(await readIgnoreFile(options.ignoreFile, true)));
  return ignores;
}

/** What serve should answer: from --replay, or from the target now (kept with --record); undefined when interrupted. */
async function expectedOutcomes(options: ParityOptions, deps: CliDeps, given: Partial<Pick<Keys, OptionalKey>>, deadline: number): Promise<Expected | undefined> {
  const { claimRecordingFolder, readRecording, writeRecording } = await import('./support/recording.js');
  const { stepsOf, uncheckedFor } = await import('./support/scenario.js');
  if (options.replay !== undefined) {
    const recording = await readRecording(options.replay);
    const keys = new Set(recording.keys);
    return { ...recording, keys, steps: stepsOf(options.only, keys), notChecked: [...recording.notChecked] };
  }
  const folder: RecordingFolder | undefined = options.record === undefined ? undefined : await claimRecordingFolder(options.record);
  const session = await deps.api(options, { retries: false });
  deps.io.progress.stop();
  const { apiKey, baseUrl } = session.settings;
  if (apiKey === undefined || apiKey === '') throw new CliError('parity needs an API key of a sandbox account', ExitCode.auth, 'pass --api-key or set REPORTCTL_API_KEY');
  const keys = new Set(Object.keys(given) as OptionalKey[]);
  const all = [apiKey, given.otherAccount, given.subUser].filter((key) => key !== undefined);
  if (new Set(all).size < all.length) usage('--api-key, --other-account-key and --sub-user-key must be three different keys', "the other account's key belongs to another account, the sub-user's to a sub-user of this one");
  const steps = stepsOf(options.only, keys);
  const { runAgainstTarget } = await import('./support/target-run.js');
  const live = await runAgainstTarget({ baseUrl, keys: { account: apiKey, ...given }, budget: options.budget, deadline, cleanup: options.cleanup === true, steps, operations: options.only }, deps);
  if (live.interrupted) return undefined;
  const notChecked = [...uncheckedFor(options.only, keys), ...live.notChecked];
  if (folder !== undefined) await writeRecording(folder, steps, live.traits, live.outcomes, { keys: [...keys], specification: live.specification, notChecked });
  return { steps, keys, outcomes: live.outcomes, traits: live.traits, ignores: [], specification: live.specification, notChecked, target: live };
}

/** The same steps against a fresh serve shaped like the target, closed however the run ends. */
async function runOnFreshServe(expected: Expected, options: ParityOptions, deps: CliDeps): Promise<Served> {
  const { startFreshServe } = await import('./support/fresh-serve.js');
  const { newContext, runScenario } = await import('./support/run.js');
  const { PacedService } = await import('./support/paced.js');
  const { AnswerWatch } = await import('./support/answer-watch.js');
  const { KeptBytes } = await import('./support/kept.js');
  const { survey } = await import('./support/survey.js');
  const serve = await startFreshServe(expected.traits, deps.clock);
  try {
    // The local run gets the same allowance of its own, however long the target took; serve's
    // waits for its rate limits cost no time (its clock moves on at once), so they do not count.
    const deadline = deps.clock.now() + options.maxTime * 1000;
    const watch = new AnswerWatch('serve');
    const service = new PacedService({
      baseUrl: serve.url,
      keys: serve.keys,
      clock: serve.clock,
      budget: Infinity,
      deadline: () => deadline + serve.skipped(),
      signal: deps.signal,
      whose: "serve's answers",
      observe: (request, answer, at) => watch.observe(request, answer, at),
    });
    const side = { kept: new KeptBytes("serve's answers"), findings: [] as Finding[], side: 'serve' as const };
    const outcomes = await runScenario(service, newContext(Math.random, expected.keys), expected.steps, side);
    const surveyed = await survey(service, 'serve', options.only);
    return { outcomes, specification: [...side.findings, ...surveyed.findings, ...watch.findings()], notChecked: surveyed.notChecked.map((note) => `serve: ${note}`), requests: service.sent };
  } finally {
    await serve.close();
  }
}

function usage(message: string, hint?: string): never {
  throw new UsageError(message, hint);
}
