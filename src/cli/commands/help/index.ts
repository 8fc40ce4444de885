import { join } from 'node:path';
import type { Wrap } from '../../cmdutil/action.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, UsageError } from '../../cmdutil/errors.js';
import { writeData } from '../../iostreams/io.js';
import type { CommandUnknownOpts as Command } from '../../cmdutil/typed-commander.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';

const help = (program: Root) =>
  program
    .command('help')
    .description('Show help for a command, or the whole reference')
    .argument('[command...]', 'the command, as you would type it (templates apply)')
    .addHelpText('after', '\nExamples:\n  $ reportctl help templates apply\n  $ reportctl help reference > commands.md');
export type HelpOptions = OptionsOf<typeof help>;

const reference = (parent: ReturnType<typeof help>) =>
  parent
    .command('reference')
    .description('Print every command, argument, flag, exit code and environment variable as Markdown (offline)')
    .option('--man <dir>', 'write one man page per command into DIR instead (roff: man reportctl-templates-apply)')
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl help reference > commands.md
  $ reportctl help reference --man ~/.local/share/man/man1

It is made from the same command tree as --help, so it always matches the installed version.`,
    );
export type HelpReferenceOptions = OptionsOf<typeof reference>;

export function registerHelp(
  program: Root,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<HelpOptions, [path: string[]]> = async (_options, path) => runHelp(program, path),
  referenceF: RunF<HelpReferenceOptions> = (options) => runHelpReference(program, options, deps),
): void {
  // Replaces commander's own `help [command]`, which would read `reference` as a command name.
  program.helpCommand(false);
  const command = help(program);
  bindRun(command, wrap, runF);
  bindRun(reference(command), wrap, referenceF);
}

/** `reportctl help templates apply`: that command's --help. */
export function runHelp(program: Root, path: readonly string[]): void {
  let command: Command = program;
  for (const [at, name] of path.entries()) {
    const next = command.commands.find((sub) => sub.name() === name || sub.aliases().includes(name));
    if (next === undefined) throw new UsageError(`no command "${path.slice(0, at + 1).join(' ')}"`, `see reportctl ${path.slice(0, at).join(' ')}${at > 0 ? ' ' : ''}--help`);
    command = next;
  }
  command.outputHelp();
}

export async function runHelpReference(program: Root, options: HelpReferenceOptions, deps: CliDeps): Promise<void> {
  // Loaded here: output-file loads node:crypto, which no other command's start-up needs.
  const [{ mkdir }, { writeFileAtomically }, { manPages }, { referenceMarkdown, referenceOf }] = await Promise.all([
    import('node:fs/promises'),
    import('../../output/output-file.js'),
    import('./support/man.js'),
    import('./support/reference.js'),
  ]);
  const commands = referenceOf(program);
  if (options.man === undefined) return writeData(deps.io.stdout, referenceMarkdown(commands));
  try {
    await mkdir(options.man, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new CliError(`--man: cannot create ${options.man}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.failed);
  }
  for (const [file, text] of manPages(commands, program.version() ?? '')) await writeFileAtomically(join(options.man, file), text, '--man', 0o644);
}
