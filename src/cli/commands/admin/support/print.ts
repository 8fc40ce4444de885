import type { QueueRun } from '../../../../contract/index.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { writeLine } from '../../../iostreams/io.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { AdminOptions } from './store.js';

/** One line of stdout: the JSON with --json, else the line for people. */
export const print = (deps: CliDeps, options: AdminOptions, value: unknown, human: string) =>
  writeLine(deps.io.stdout, options.json ? JSON.stringify(value) : human);

/**
 * A list or a result on stdout: the JSON with --json, else tab-separated lines as every list
 * prints piped (whole ids first, no header), so `cut -f 1` gives the id. A key is a row of
 * its own, so `sed -n 2p` gives it whole.
 */
export function printRows(deps: CliDeps, options: AdminOptions, value: unknown, rows: readonly (readonly string[])[]): void {
  if (options.json) return writeLine(deps.io.stdout, JSON.stringify(value));
  for (const row of rows) writeLine(deps.io.stdout, row.map(escapeControls).join('\t'));
}

/** `RUN_ID<TAB>status<TAB>1:completed 2:running …` */
export const queueRunRow = (run: Pick<QueueRun, 'id' | 'status' | 'steps'>) => [
  run.id,
  run.status,
  run.steps.map((step) => `${step.order}:${step.status}`).join(' '),
];
