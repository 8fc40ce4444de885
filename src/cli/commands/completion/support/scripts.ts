import { SERVICE_ID } from '../../../iostreams/sanitize.js';

/**
 * The only ids completion hands to a shell. They come from the service, which may be hostile
 * or intercepted: anything else (`$(…)`, backticks, quotes, spaces, control characters) is
 * dropped, never offered. The scripts check it again, so an older `reportctl` on PATH cannot
 * undo it.
 */
export const COMPLETABLE_ID = SERVICE_ID;

/** POSIX single quotes (bash and zsh): nothing inside is expanded. */
export const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A shell function that echoes the value of the row whose key is its first argument. */
export function caseTable(name: string, rows: [string, string][]): string {
  const lines = rows.filter(([, value]) => value !== '').map(([key, value]) => `    ${sq(key)}) echo ${sq(value)} ;;`);
  return `${name}() {\n  case "$1" in\n${lines.join('\n')}\n  esac\n}`;
}

/** What the service's ids are called, for the line zsh shows above them. */
export const ID_LABELS = { 'template-ids': 'template', 'run-ids': 'queue run', 'preset-ids': 'preset' } as const;
