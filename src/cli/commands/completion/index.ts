import { Argument, type Command } from 'commander';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { writeLine } from '../../io.js';
import type { Wrap } from '../../program.js';
import { COMPLETABLE_ID, bashScript, fishScript, zshScript } from './shared/scripts.js';
import { completionTree } from './shared/tree.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

export function completionScript(program: Command, shell: Shell): string {
  const nodes = completionTree(program);
  return shell === 'bash' ? bashScript(nodes) : shell === 'zsh' ? zshScript(nodes) : fishScript(nodes);
}

export function registerCompletion(program: Command, deps: CliDeps, wrap: Wrap): void {
  program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(shells))
    .addHelpText(
      'after',
      `
Examples:
  $ source <(reportctl completion bash)          # in ~/.bashrc
  $ source <(reportctl completion zsh)           # in ~/.zshrc, after compinit
  $ reportctl completion fish > ~/.config/fish/completions/reportctl.fish

Template and run ids complete from the service with your profile's key.`,
    )
    .action(
      wrap(async (shell: Shell) => {
        deps.io.stdout.write(completionScript(program, shell));
      }),
    );

  // Called by the scripts for ids; quick and silent, whatever goes wrong.
  program
    .command('__complete', { hidden: true })
    .argument('<kind>')
    .action(
      wrap(async (kind: string, _o: unknown, command: Command) => {
        try {
          const ids = await completeIds(kind, command.optsWithGlobals<GlobalOptions>(), deps);
          for (const id of ids) if (COMPLETABLE_ID.test(id)) writeLine(deps.io.stdout, id);
        } catch {
          // Completion must never print errors into the user's command line.
        }
      }),
    );
}

async function completeIds(kind: string, options: GlobalOptions, deps: CliDeps): Promise<string[]> {
  // A TAB must not hang: 2 s, unless REPORTCTL_TIMEOUT_MS sets the wait for answers.
  const setMs = Number(deps.env.REPORTCTL_TIMEOUT_MS);
  const budgetMs = Number.isInteger(setMs) && setMs > 0 ? setMs : 2000;
  const session = await deps.api({ ...options, verbose: false }, { signal: AbortSignal.any([deps.signal, AbortSignal.timeout(budgetMs)]) });
  const query = { page: 1, limit: 100 };
  switch (kind) {
    case 'template-ids':
      return (await session.api.templates.list(query)).data.map((template) => template.id);
    case 'run-ids':
      return (await session.api.queueRuns.list(query)).data.map((run) => run.id);
    case 'preset-ids':
      return (await session.api.templates.presets(query)).data.map((preset) => preset.id);
    default:
      return [];
  }
}
