import type { CliDeps, GlobalOptions } from '../../cmdutil/context.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { Argument, type CommandUnknownOpts } from '../../cmdutil/typed-commander.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';
import { describeChoices } from '../../cmdutil/choice-notes.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { bashScript } from './support/bash.js';
import { fishScript } from './support/fish.js';
import { COMPLETABLE_ID } from './support/scripts.js';
import { completionTree } from './support/tree.js';
import { zshScript } from './support/zsh.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];
const shellNotes: Readonly<Record<Shell, string>> = {
  bash: 'for ~/.bashrc',
  zsh: 'for $fpath, or ~/.zshrc after compinit',
  fish: 'for ~/.config/fish/completions',
};

export function completionScript(program: CommandUnknownOpts, shell: Shell): string {
  const nodes = completionTree(program);
  return shell === 'bash' ? bashScript(nodes) : shell === 'zsh' ? zshScript(nodes) : fishScript(nodes);
}

const completion = (program: Root) =>
  program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .addArgument(describeChoices(new Argument('<shell>', 'the shell').choices(shells), shellNotes))
    .addHelpText(
      'after',
      `
Examples:
  $ eval "$(reportctl completion bash)"               # in ~/.bashrc
  $ reportctl completion zsh > ~/.zfunc/_reportctl    # with fpath=(~/.zfunc $fpath) before compinit
  $ eval "$(reportctl completion zsh)"                # or in ~/.zshrc, after compinit
  $ reportctl completion fish > ~/.config/fish/completions/reportctl.fish

Template and run ids complete from the service with your profile's key (zsh and fish show
their names beside them).`,
    );
export type CompletionOptions = OptionsOf<typeof completion>;

// Called by the scripts for ids (with --names, `id<TAB>name` for zsh and fish); quick and
// silent, whatever goes wrong. A name is made visible: no control character reaches a shell.
const completeIds = (program: Root) => program.command('__complete', { hidden: true }).argument('<kind>').option('--names');
export type CompleteIdsOptions = OptionsOf<typeof completeIds>;

export function registerCompletion(
  program: Root,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<CompletionOptions, [shell: Shell]> = (_options, shell) => runCompletion(program, shell, deps),
  completeF: RunF<CompleteIdsOptions, [kind: string]> = (options, kind) => runCompleteIds(kind, options, deps),
): void {
  bindRun(completion(program), wrap, runF);
  bindRun(completeIds(program), wrap, completeF);
}

/** `reportctl completion SHELL`: the script for the command tree `program` holds. */
export async function runCompletion(program: CommandUnknownOpts, shell: Shell, deps: CliDeps): Promise<void> {
  deps.io.stdout.write(completionScript(program, shell));
}

/** `reportctl __complete KIND`: ids (with `--names`, `id<TAB>name`) for the scripts. */
export async function runCompleteIds(kind: string, options: CompleteIdsOptions, deps: CliDeps): Promise<void> {
  try {
    const ids = await idsOf(kind, options, deps);
    for (const { id, name } of ids) {
      if (COMPLETABLE_ID.test(id)) writeLine(deps.io.stdout, options.names ? `${id}\t${escapeControls(name)}` : id);
    }
  } catch {
    // Completion must never print errors into the user's command line.
  }
}

/** What one TAB reads at most: a page of 100 ids with their names, and room to spare. */
export const COMPLETION_MAX_BYTES = 8 * 1024 * 1024;

async function idsOf(kind: string, options: GlobalOptions, deps: CliDeps): Promise<{ id: string; name: string }[]> {
  // A TAB must not hang: 2 s, unless REPORTCTL_TIMEOUT_MS sets the wait for answers.
  const setMs = Number(deps.env.REPORTCTL_TIMEOUT_MS);
  const budgetMs = Number.isInteger(setMs) && setMs > 0 ? setMs : 2000;
  const session = await deps.api(
    { ...options, verbose: undefined },
    { signal: AbortSignal.any([deps.signal, AbortSignal.timeout(budgetMs)]), timeoutMs: budgetMs, maxResponseBytes: COMPLETION_MAX_BYTES },
  );
  const query = { page: 1, limit: 100 };
  switch (kind) {
    case 'template-ids':
      return (await session.api.templates.list(query)).data;
    case 'run-ids':
      return (await session.api.queueRuns.list(query)).data;
    case 'preset-ids':
      return (await session.api.presets.list(query)).data;
    default:
      return [];
  }
}
