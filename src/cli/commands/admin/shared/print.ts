import type { QueueRun } from '../../../../contract/index.js';
import type { CliDeps } from '../../../context.js';
import { writeLine } from '../../../io.js';
import type { AdminOptions } from './store.js';

/** One line of stdout: the JSON with --json, else the line for people. */
export const print = (deps: CliDeps, options: AdminOptions, value: unknown, human: string) =>
  writeLine(deps.io.stdout, options.json ? JSON.stringify(value) : human);

/** `RUN_ID status 1:done 2:running …` */
export const queueRunSummary = (run: Pick<QueueRun, 'id' | 'status' | 'steps'>) =>
  `${run.id} ${run.status} ${run.steps.map((step) => `${step.order}:${step.status}`).join(' ')}`;
