import type { QueueRun } from '../../../contract/index.js';
import { finishedQueueRunStatuses } from '../../../contract/vocabulary.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { CliError, ExitCode, SilentFailure, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { jsonText, paint, statusColor, type Segment } from '../../output/output.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { secondsOption } from '../../cmdutil/option-parsers.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import type { Style } from '../../iostreams/style.js';
import { currentStep, stepsDone, stepSymbol } from './support/columns.js';
import { inPlace } from '../../iostreams/redraw.js';
import { findQueueRun } from '../../../client/api.js';
import { ApiResponseError, NetworkError } from '../../../client/errors.js';
import { resolveQueueRunId } from '../../session/resolve.js';

/** Longest pause between tries while the service is failing. */
const MAX_BACKOFF_MS = 30_000;

const verb = (parent: Parent) =>
  parent
    .command('watch')
    .description('Follow a queue run step by step until it completes, fails or is cancelled')
    .argument('<id>', 'queue run id, a unique prefix of it (6+ characters) or the exact name')
    .option('-i, --interval <seconds>', 'seconds between polls (at least 0.5)', secondsOption(0.5), 5)
    .option('--timeout <seconds>', 'give up (exit 8) if the run is still going after this long', secondsOption(0))
    .option('--max-unreachable <seconds>', 'give up (exit 6) after failing to reach the service this long in a row', secondsOption(1), 120)
    .option('--exit-status', 'exit 1 when the run fails or is cancelled')
    .addHelpText(
      'after',
      `
On a terminal the view redraws in place; piped, one line per change; with --json, one JSON
object per change (the run as the service returns it), the final run last. Errors the service
may recover from (network, 5xx) are retried with back-off; after --max-unreachable seconds of
them in a row (default 120) the watch gives up with the last one (a network error exits 6).

Examples:
  $ reportctl queue-runs watch RUN_ID
  $ reportctl queue-runs watch RUN_ID --interval 2 --timeout 600 --exit-status
  $ reportctl queue-runs watch RUN_ID --json | jq -r .status

Exit status: 0 when the run ends (with --exit-status: 0 completed, 1 failed or cancelled),
4 no such run, 6 the service unreachable (for --max-unreachable, or when --timeout came while
it was), 8 --timeout reached with the run still going, 130 interrupted.`,
    );
export type QueueRunsWatchOptions = OptionsOf<typeof verb>;

export function registerQueueRunsWatch(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<QueueRunsWatchOptions, [id: string]> = (options, id) => runQueueRunsWatch(id, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

/** How a change is shown: redrawn in place on a terminal, a line when piped, NDJSON for scripts. */
interface WatchView {
  /** Called after every successful poll; `changed` says whether the run differs from the last one. */
  show(run: QueueRun, changed: boolean, finished: boolean): void;
  /** Trouble reaching the service: on a terminal, the frame's status line; elsewhere a line on stderr. */
  notice(text: string): void;
}

export async function runQueueRunsWatch(reference: string, options: QueueRunsWatchOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const session = await deps.api(options);
  const id = await resolveQueueRunId(session.api, reference, deps.signal);
  const intervalMs = Math.round((options.interval ?? 5) * 1000);
  const deadline = options.timeout === undefined ? Infinity : deps.clock.now() + options.timeout * 1000;
  const view = watchView(options, deps, await deps.io.style(options.color));
  const timedOut = (status: string) => watchTimedOut(id, options, status);

  // Looking first on the page where the run was last seen keeps an unchanged run at one request per poll.
  let page = 1;
  let previous: string | undefined;
  let lastStatus = 'unknown';
  let failures = 0;
  let failingSince = 0;
  while (!deps.signal.aborted) {
    let found: Awaited<ReturnType<typeof findQueueRun>>;
    try {
      found = await findQueueRun(session.api, id, page, deps.signal);
    } catch (error) {
      if (deps.signal.aborted) break;
      if (!transient(error)) throw error;
      deps.io.progress.stop();
      failures += 1;
      const now = deps.clock.now();
      if (failures === 1) failingSince = now;
      const waitMs = backoff(error, { id, options, deadline, lastStatus, intervalMs, failures, failingSince, now });
      view.notice(`reportctl: ${escapeControls(error instanceof Error ? error.message : String(error))}; still watching, next try in ${formatSeconds(waitMs)}`);
      await deps.clock.sleep(waitMs, deps.signal);
      continue;
    }
    failures = 0;
    deps.io.progress.stop();
    if (!found) throw new CliError(`queue run ${id} not found`, ExitCode.notFound, 'see `reportctl queue-runs list`');
    page = found.page;
    const { run } = found;
    lastStatus = run.status;
    const snapshot = JSON.stringify(run);
    const finished = finishedQueueRunStatuses.includes(run.status);
    view.show(run, snapshot !== previous, finished);
    previous = snapshot;
    if (finished && options.exitStatus && run.status !== 'completed') {
      throw new SilentFailure(ExitCode.failed, `queue run ${id} ended ${run.status}`, { code: run.status === 'failed' ? 'RUN_FAILED' : 'RUN_CANCELLED' });
    }
    if (finished) return ExitCode.ok;
    const now = deps.clock.now();
    if (now >= deadline) throw timedOut(run.status);
    await deps.clock.sleep(Math.min(intervalMs, deadline - now), deps.signal);
  }
  throw new SilentFailure(ExitCode.interrupted, 'interrupted');
}

const transient = (error: unknown) =>
  error instanceof NetworkError || (error instanceof ApiResponseError && (error.status >= 500 || error.status === 429));

const watchTimedOut = (id: string, options: QueueRunsWatchOptions, status: string) =>
  new CliError(`queue run ${id} is still ${status} after ${options.timeout} s (--timeout)`, ExitCode.watchTimeout);

// A dead service is not a slow run: say so with the network's exit code.
const unreachable = (error: InstanceType<typeof NetworkError>, why: string) =>
  new CliError(`${why}: ${error.message}`, ExitCode.network, 'is the service running? check --base-url / REPORTCTL_BASE_URL');

interface Failing {
  id: string;
  options: QueueRunsWatchOptions;
  deadline: number;
  lastStatus: string;
  intervalMs: number;
  /** Failed polls in a row, this one included, and when the first of them failed. */
  failures: number;
  failingSince: number;
  now: number;
}

/** After a transient failure: how long to wait before the next poll, or the error that ends the watch. */
function backoff(error: unknown, { id, options, deadline, lastStatus, intervalMs, failures, failingSince, now }: Failing): number {
  const maxUnreachableMs = options.maxUnreachable * 1000;
  if (now >= deadline) {
    if (error instanceof NetworkError) throw unreachable(error, `queue run ${id}: no answer from the service within ${options.timeout} s (--timeout)`);
    throw watchTimedOut(id, options, lastStatus);
  }
  if (now - failingSince >= maxUnreachableMs) {
    if (error instanceof NetworkError) throw unreachable(error, `gave up after ${formatSeconds(now - failingSince)} without an answer (--max-unreachable)`);
    throw error;
  }
  return Math.min(deadline - now, failingSince + maxUnreachableMs - now, MAX_BACKOFF_MS, intervalMs * 2 ** (failures - 1));
}

function watchView(options: QueueRunsWatchOptions, deps: CliDeps, style: Style): WatchView {
  const out = deps.io.stdout;
  if (options.json) {
    return {
      show: (run, changed) => changed && writeLine(out, jsonText(deps, run)),
      notice: (text) => writeLine(deps.io.stderr, text),
    };
  }
  if (!deps.io.canRedraw()) {
    return {
      show: (run, changed) => changed && writeLine(out, changeLine(run, new Date(deps.clock.now()).toISOString(), style)),
      notice: (text) => writeLine(deps.io.stderr, text),
    };
  }
  const screen = inPlace(deps.io);
  let last: QueueRun | undefined;
  return {
    show: (run, _changed, finished) => {
      last = run;
      // The final frame is drawn whole: nothing is drawn after it, so it may scroll.
      screen.draw(frame(run, deps, style, finished ? undefined : options.interval, finished ? undefined : screen.rows()));
    },
    // In the status line, so a service that stays away does not pile lines up under the frame.
    notice: (text) => {
      const status = fit([[text, style.yellow]], deps.io.terminalWidth() - 1);
      const rows = screen.rows();
      screen.draw(last ? [...frame(last, deps, style, undefined, rows === undefined ? undefined : rows - 1), status] : [status]);
    },
  };
}

/** `2026-05-01T10:00:00.000Z run RUN running step 2/3 lot-8 counting running` */
export function changeLine(run: QueueRun, at: string, style: Style): string {
  const parts: Segment[] = [[at], ['run'], [run.id], [run.status, statusColor(run.status, style)]];
  const step = currentStep(run);
  if (step) parts.push(['step'], [`${step.order}/${run.steps.length}`], [step.lotId], [step.analysisType], [step.status, statusColor(step.status, style)]);
  return parts.map((part) => paint([part])).join(' ');
}

/**
 * One screen of the in-place view. Every line fits the terminal's width; with `maxRows`, the
 * steps shown are those around the current one, so the frame fits the terminal's height.
 */
function frame(run: QueueRun, deps: CliDeps, style: Style, intervalSeconds: number | undefined, maxRows?: number): string[] {
  const width = deps.io.terminalWidth() - 1;
  const now = deps.clock.now();
  const steps = [...run.steps].sort((a, b) => a.order - b.order);
  const lotWidth = Math.max(3, ...steps.map((step) => escapeControls(step.lotId).length));
  const typeWidth = Math.max(8, ...steps.map((step) => escapeControls(step.analysisType).length));
  const paint = (status: string) => statusColor(status, style);
  const lines: Segment[][] = [
    [[run.name, style.bold], [`  ${run.id}`, style.dim]],
    [
      [`${stepSymbol(run.status)} ${run.status}`, paint(run.status)],
      [`  ${stepsDone(run)}/${steps.length} steps done`],
      [run.startedAt ? `  ${run.finishedAt ? 'took' : 'running for'} ${duration((run.finishedAt ? Date.parse(run.finishedAt) : now) - Date.parse(run.startedAt))}` : ''],
    ],
  ];
  const tail = intervalSeconds === undefined ? 0 : 1;
  let shown = steps;
  let hidden = 0;
  if (maxRows !== undefined && lines.length + steps.length + tail > maxRows) {
    // One row says how many steps are left out.
    const room = Math.max(1, maxRows - lines.length - tail - 1);
    const current = steps.indexOf(currentStep(run) ?? steps[0]!);
    const start = Math.min(Math.max(0, current - Math.floor(room / 2)), steps.length - room);
    shown = steps.slice(start, start + room);
    hidden = steps.length - room;
  }
  for (const step of shown) {
    lines.push([
      [`  ${stepSymbol(step.status)} `, paint(step.status)],
      [`${String(step.order).padStart(String(steps.length).length)}/${steps.length}  ${escapeControls(step.lotId).padEnd(lotWidth)}  ${escapeControls(step.analysisType).padEnd(typeWidth)}  `],
      [step.status, paint(step.status)],
      [step.analysisId ? `  ${step.analysisId}` : '', style.dim],
    ]);
  }
  if (hidden > 0) lines.push([[`  … ${hidden} more steps (the terminal is too short to show them all)`, style.dim]]);
  if (intervalSeconds !== undefined) {
    lines.push([[`checked ${new Date(now).toISOString().slice(11, 19)}Z, every ${intervalSeconds} s; Ctrl-C to stop`, style.dim]]);
  }
  return lines.map((segments) => fit(segments, width));
}

function fit(segments: Segment[], width: number): string {
  let left = width;
  let line = '';
  for (const [text, paintText] of segments) {
    if (left <= 0) break;
    // Made visible before measuring, so an escaped control character still fits the line.
    const escaped = escapeControls(text);
    const shown = escaped.length > left ? escaped.slice(0, Math.max(0, left - 1)) + '…' : escaped;
    left -= shown.length;
    line += paintText && shown !== '' ? paintText(shown) : shown;
  }
  return line;
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
