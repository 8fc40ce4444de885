import { keepText, keptText } from '../../bin/code-cache.js';
import type { Root } from './cmdutil/verb.js';

/**
 * `reportctl --help` lists every top-level command, which needs the whole tree registered: more
 * than the rest of the command costs (docs/performance.md). The list, as commander's help shows
 * it, is kept beside the build's code caches by the first such run (it depends on the build
 * alone), and later ones show it without registering anything.
 */

const KEPT_AS = 'root-help.json';

type Summary = ReadonlyArray<readonly [term: string, description: string]>;

/** The root's help and nothing else: `--help`, `-h`, or no argument at all. */
export function rootHelpOnly(argv: readonly string[] | undefined): boolean {
  return argv !== undefined && (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')));
}

/** The list an earlier root help kept for this build, or undefined. */
export function keptSummary(): Summary | undefined {
  const text = keptText(KEPT_AS);
  if (text === null) return undefined;
  try {
    const summary = JSON.parse(text) as unknown;
    const valid = Array.isArray(summary) && summary.every((row) => Array.isArray(row) && row.length === 2 && row.every((cell) => typeof cell === 'string'));
    return valid ? (summary as Summary) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the list `program`'s help shows (the whole tree registered) for the next root help. */
export function keepSummary(program: Root): void {
  const help = program.createHelp();
  const summary: Summary = help.visibleCommands(program).map((command) => [help.subcommandTerm(command), help.subcommandDescription(command)]);
  keepText(KEPT_AS, JSON.stringify(summary));
}

/** `program`'s help lists `summary` as its commands (none of them registered). */
export function showSummary(program: Root, summary: Summary): void {
  // What commander's help asks of a command it lists (its group: the default heading).
  const rows = summary.map(([term, description]) => ({ term, description, helpGroup: () => '' }));
  type Row = (typeof rows)[number];
  // As commander writes it for a program with commands.
  program.usage('[options] [command]');
  program.configureHelp({
    visibleCommands: () => rows as never[],
    subcommandTerm: (row) => (row as unknown as Row).term,
    subcommandDescription: (row) => (row as unknown as Row).description,
  });
}
