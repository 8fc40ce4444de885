import type { QueueRun, QueueRunStep } from '../../../../contract/index.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { formatTime, idColumn, statusColor, type Column } from '../../../output/output.js';

export function stepsDone(run: QueueRun): number {
  return run.steps.filter((step) => step.status === 'completed').length;
}

/** The step a person wants to see: the one running, else the last that finished, else the first. */
export function currentStep(run: QueueRun): QueueRunStep | undefined {
  const steps = [...run.steps].sort((a, b) => a.order - b.order);
  const running = steps.find((step) => step.status === 'running');
  if (running) return running;
  const finished = steps.filter((step) => step.status === 'completed' || step.status === 'failed');
  return finished[finished.length - 1] ?? steps[0];
}

const SYMBOLS: Record<string, string> = { completed: '✓', failed: '✗', running: '●', claimed: '◐', cancelled: '⊘', skipped: '-', pending: '·' };

export function stepSymbol(status: string): string {
  return SYMBOLS[status] ?? '?';
}

export function queueRunColumns(deps: CliDeps, wide: boolean): Column<QueueRun>[] {
  const columns: Column<QueueRun>[] = [
    idColumn(deps, wide, (run) => run.id),
    { header: 'NAME', readable: true, value: (run) => run.name },
    { header: 'STATUS', value: (run) => run.status, color: (text, run, style) => statusColor(run.status, style)(text) },
    { header: 'STEPS', value: (run) => `${stepsDone(run)}/${run.steps.length}` },
    { header: 'HA', value: (run) => String(run.estimatedHa) },
  ];
  if (wide) {
    columns.push(
      idColumn(deps, wide, (run) => run.queueId, 'QUEUE'),
      { header: 'STARTED', value: (run) => formatTime(run.startedAt, deps) },
      { header: 'FINISHED', value: (run) => formatTime(run.finishedAt, deps) },
    );
  }
  columns.push({ header: 'CREATED', value: (run) => formatTime(run.createdAt, deps) });
  return columns;
}

export function stepColumns(deps: CliDeps): Column<QueueRunStep>[] {
  return [
    { header: 'STEP', value: (step) => String(step.order) },
    { header: 'LOT', value: (step) => step.lotId },
    { header: 'ANALYSIS', value: (step) => step.analysisType },
    { header: 'STATUS', value: (step) => step.status, color: (text, step, style) => statusColor(step.status, style)(text) },
    idColumn(deps, false, (step) => step.analysisId, 'ANALYSIS ID'),
    { header: 'FINISHED', value: (step) => formatTime(step.finishedAt, deps) },
  ];
}
