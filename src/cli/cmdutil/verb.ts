import type { ActionResult, Wrap } from './action.js';
import type { Command, OptionValues } from './typed-commander.js';

/** The options every command accepts, declared on the root; each verb's options include them. */
export function withGlobalOptions(program: Command) {
  return program
    .option('--json', 'print the service\'s JSON (for scripts)')
    .option('--jq <expression>', 'filter the JSON through jq (implies --json; strings print raw)')
    .option('--no-color', 'no colours (also NO_COLOR=1)')
    .option('--no-input', 'never prompt; fail naming the flag that is needed instead')
    .option('-v, --verbose', 'trace each HTTP request and response on stderr (the key redacted)')
    .option('--base-url <url>', 'service base URL (env REPORTCTL_BASE_URL)')
    .option('--api-key <key>', 'API key (prefer REPORTCTL_API_KEY or `auth login`)')
    .option('--profile <name>', 'configuration profile (env REPORTCTL_PROFILE)');
}

/** The program with the global options: where top-level commands are registered. */
export type Root = ReturnType<typeof withGlobalOptions>;
export type GlobalFlags = ReturnType<Root['opts']>;
/** A noun (`templates`, `admin keys`) that verbs are registered on. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a noun has no options of its own
export type Parent = Command<[], {}, GlobalFlags>;

/**
 * The options a verb's run gets: the flags `declare` puts on the verb, typed as declared, and
 * the root's (optional, so a test can call a run with only what it means).
 */
export type OptionsOf<Declare extends (parent: never) => { opts(): OptionValues }> = ReturnType<ReturnType<Declare>['opts']> & Partial<GlobalFlags>;

/** What a verb runs with its parsed options and arguments; tests pass their own to see them. */
export type RunF<Options, Args extends unknown[] = []> = (options: Options, ...args: Args) => Promise<ActionResult>;

/** Binds a verb to what it runs: its options and its arguments, as commander parsed them. */
export function bindRun<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  wrap: Wrap,
  runF: RunF<ReturnType<Command<Args, Opts, Globals>['optsWithGlobals']>, Args>,
): void {
  command.action(wrap(async () => runF(command.optsWithGlobals(), ...command.processedArgs)));
}
