import { Command, CommanderError, type CommandUnknownOpts } from './cmdutil/typed-commander.js';
import type { ActionResult, Wrap } from './cmdutil/action.js';
import { registerFormulaCommands } from './commands/formula/index.js';
import { registerServe } from './commands/serve/serve.js';
import { registerParity } from './commands/parity/parity.js';
import { registerAdmin } from './commands/admin/index.js';
import { registerTemplatesCommands } from './commands/templates/index.js';
import { registerCatalogsCommands } from './commands/catalogs/index.js';
import { registerQueuesCommands } from './commands/queues/index.js';
import { registerQueueRunsCommands } from './commands/queue-runs/index.js';
import { registerAnalysesCommands } from './commands/analyses/index.js';
import { registerApi } from './commands/api.js';
import { registerConfigCommands } from './commands/config/index.js';
import { registerAuthCommands } from './commands/auth/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerDoctor } from './commands/doctor/doctor.js';
import { registerLsp } from './commands/lsp/lsp.js';
import { registerHelp } from './commands/help/index.js';
import type { CliDeps } from './cmdutil/context.js';
import { CliError, ExitCode, SilentFailure, UsageError, type ExitCodeValue } from './cmdutil/errors.js';
import { explainError, failureJson } from './cmdutil/explain.js';
import { writeLine } from './iostreams/io.js';
import { withGlobalOptions, type Root } from './cmdutil/verb.js';
import { jqCompileError, jqExpression, JqOutput, jqTimeLimit, withJson } from './output/jq.js';
import { escapeControls } from './iostreams/sanitize.js';
import { refuseEmptyArguments } from './session/resolve.js';
import { keepSummary, keptSummary, rootHelpOnly, showSummary } from './root-help.js';

/** Registers a top-level command (and its subcommands) on the program. */
export type Register = (program: Root, deps: CliDeps, wrap: Wrap) => void;

/** The top-level commands, each with what registers it (and its subcommands). */
const groups: ReadonlyArray<readonly [name: string, register: Register]> = [
  ['templates', registerTemplatesCommands],
  ['catalogs', registerCatalogsCommands],
  ['queues', registerQueuesCommands],
  ['queue-runs', registerQueueRunsCommands],
  ['analyses', registerAnalysesCommands],
  ['api', registerApi],
  ['config', registerConfigCommands],
  ['auth', registerAuthCommands],
  ['formula', registerFormulaCommands],
  ['serve', registerServe],
  ['parity', registerParity],
  ['admin', registerAdmin],
  // `completion` prints a script built from the whole tree; `__complete` only fetches ids.
  ['__complete', registerCompletion],
  ['doctor', registerDoctor],
  ['lsp', registerLsp],
  ['help', registerHelp],
];
/** Root options that take a value, so the word after them is not a command. */
const VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--profile', '--jq']);

/** The command argv names, if any: the first word that is neither an option nor its value. */
function commandNamed(argv: readonly string[]): string | undefined {
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '--') return undefined;
    if (VALUE_OPTIONS.has(word)) at++;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/** `--version` alone: nothing to register (without a command, commander shows the tree in its help). */
function versionOnly(argv: readonly string[] | undefined): boolean {
  return argv !== undefined && argv.length > 0 && argv.every((word) => word === '--version' || word === '-V');
}

/**
 * The program, with every command, or with only the group `argv` names: registering the
 * whole tree costs more than some commands take to run (bench/startup.mjs). Help, suggestions
 * for a mistyped command and `completion` see the whole tree.
 */
export function buildProgram(
  deps: CliDeps,
  report: (code: ExitCodeValue) => void,
  argv?: readonly string[],
  jsonErrors = false,
  only?: Register,
): Root {
  const program = withGlobalOptions(
    new Command('reportctl')
      .description('Report templates, catalogs and queues for drone lot analyses: a client, an offline formula checker and an embedded service.')
      .version(VERSION, '-V, --version'),
  );
  program
    .showSuggestionAfterError(true)
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
Get started:
  $ reportctl serve --demo                 # a local service with a demo account (keys printed once)
  $ export REPORTCTL_API_KEY=rctl_…        # or: reportctl auth login
  $ reportctl templates list
  $ reportctl formula check '(NIR - R) / (NIR + R + eps)'

Every command has --help with examples. Exit codes: 0 ok, 1 failed, 2 usage, 3 auth,
4 not found, 5 rate limited, 6 network, 8 watch timeout, 130 interrupted.`,
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      // With JSON errors, commander's text becomes the one JSON line reportError prints.
      writeErr: (text) => (jsonErrors ? undefined : deps.io.stderr.write(text)),
    });

  // Every verb's action goes through here, so results and errors are handled in one place.
  const wrap: Wrap =
    <A extends unknown[]>(action: (...args: A) => Promise<ActionResult>) =>
    async (...args: A) => {
      const code = await action(...args);
      report(code ?? ExitCode.ok);
    };

  // Before any verb runs: one check of every command's arguments.
  program.hook('preAction', (_program, verb) => refuseEmptyArguments(verb));
  if (only) {
    only(program, deps, wrap);
  } else if (!versionOnly(argv)) {
    const summary = rootHelpOnly(argv) ? keptSummary() : undefined;
    if (summary) {
      showSummary(program, summary);
      return program;
    }
    const named = argv === undefined ? undefined : commandNamed(argv);
    // `help` shows any command: the whole tree.
    const group = named === 'help' ? undefined : groups.find(([name]) => name === named);
    for (const [, register] of group ? [group] : groups) register(program, deps, wrap);
  }
  for (const group of program.commands) summariseVerbs(group);
  if (rootHelpOnly(argv)) keepSummary(program);
  return program;
}

/** A group's summary ends with its verbs as registered, so help never names one that does not exist. */
function summariseVerbs(group: CommandUnknownOpts): void {
  const verbs = group.commands.filter((verb) => !(verb as unknown as { _hidden?: boolean })._hidden).map((verb) => verb.name());
  if (verbs.length > 0) group.description(`${group.description()}: ${verbs.join(', ')}`);
}

declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

/** JSON failures: `--json` anywhere before `--`, or REPORTCTL_JSON_ERRORS=1 for every command. */
export function wantsJsonErrors(argv: readonly string[], env: CliDeps['env']): boolean {
  if (env.REPORTCTL_JSON_ERRORS === '1') return true;
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Parses argv, runs the verb, and maps whatever happened to an exit code. Never throws.
 * `only` registers instead of the command tree (tests: one verb with a run of their own).
 */
export async function runCli(argv: readonly string[], deps: CliDeps, only?: Register): Promise<number> {
  const jsonErrors = wantsJsonErrors(argv, deps.env);
  const expression = jqExpression(argv);
  if (expression === undefined) return runProgram(argv, deps, jsonErrors, only);
  const report = (failure: CliError) => {
    if (jsonErrors) writeLine(deps.io.stderr, failureJson(explainError(failure)));
    else for (const line of failure.message.split('\n')) writeLine(deps.io.stderr, escapeControls(line));
  };
  let output: JqOutput;
  try {
    // jq loads only here: no other command pays for compiling its WebAssembly.
    const { loadJq } = await import('./output/jq-engine.js');
    const engine = loadJq(jqTimeLimit(deps.env));
    const compileError = await jqCompileError(engine, expression);
    if (compileError !== undefined) {
      report(new UsageError(compileError));
      return ExitCode.usage;
    }
    output = new JqOutput(engine, expression, deps.io, report);
  } catch (error) {
    return reportError(error, deps, jsonErrors, argv);
  }
  const jqDeps: CliDeps = { ...deps, io: deps.io.withStdout(output) };
  const code = await runProgram(withJson(argv), jqDeps, jsonErrors, only);
  try {
    await output.finish();
  } catch (error) {
    return reportError(error, deps, jsonErrors, argv);
  }
  // Ctrl-C during a jq run ended the command, whatever it would have returned.
  if (output.failure?.exitCode === ExitCode.interrupted) return ExitCode.interrupted;
  return code === ExitCode.ok && output.failure ? output.failure.exitCode : code;
}

async function runProgram(argv: readonly string[], deps: CliDeps, jsonErrors: boolean, only?: Register): Promise<number> {
  let exitCode: ExitCodeValue = ExitCode.ok;
  const program = buildProgram(
    deps,
    (code) => {
      exitCode = code;
    },
    argv,
    jsonErrors,
    only,
  );
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    return reportError(error, deps, jsonErrors, argv);
  }
  // A verb that returned a failing code has said why to people; scripts still get their line.
  if (exitCode !== ExitCode.ok && jsonErrors) writeLine(deps.io.stderr, failureJson(explainError(new SilentFailure(exitCode, `exit code ${exitCode}`))));
  return exitCode;
}

/** `formula check '-NIR / (R + eps)'`: commander reads the formula as an option. */
function formulaAsOption(error: CommanderError, argv: readonly string[]): string | undefined {
  const option = error.code === 'commander.unknownOption' ? /'(.*)'/.exec(error.message)?.[1] : undefined;
  if (option === undefined || !/[\s()+*/]|^-[A-Z]/.test(option)) return undefined;
  const before = argv.slice(0, Math.max(0, argv.indexOf(option))).join(' ');
  return `a formula that starts with - goes after --: reportctl ${before} -- '${option}'`;
}

export function reportError(error: unknown, deps: CliDeps, jsonErrors = false, argv: readonly string[] = []): number {
  if (error instanceof CommanderError) {
    // Help and version are not failures.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      return ExitCode.ok;
    }
    const hint = formulaAsOption(error, argv);
    // Commander has already printed its message for people.
    if (jsonErrors) writeLine(deps.io.stderr, failureJson(explainError(new UsageError(error.message.replace(/^error: /, ''), hint))));
    else if (hint) writeLine(deps.io.stderr, `hint: ${hint}`);
    return ExitCode.usage;
  }
  // Whatever broke after Ctrl-C broke because of it, unless a command failed on purpose (a
  // snapshot that could not be written at shutdown is still exit 1).
  const interrupted = deps.signal.aborted && !(error instanceof CliError);
  const failure = explainError(interrupted ? new SilentFailure(ExitCode.interrupted, 'interrupted') : error);
  if (jsonErrors) {
    writeLine(deps.io.stderr, failureJson(failure));
  } else {
    for (const line of failure.lines) writeLine(deps.io.stderr, line);
  }
  if (deps.env.REPORTCTL_DEBUG && error instanceof Error && error.stack) writeLine(deps.io.stderr, error.stack);
  return failure.exitCode;
}
